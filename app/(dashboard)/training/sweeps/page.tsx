import type { Metadata } from "next";
import Link from "next/link";
import { Plus } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed, NotAllowedNote } from "@/components/auth/not-allowed";
import { SweepsList } from "@/components/sweeps/sweeps-list";
import { actorCan } from "@/server/auth/actor";
import { grantsAllowSomeAgent } from "@/lib/auth/scopes";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Sweeps" };

export default async function SweepsPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  // A viewer gets no button they cannot use: the reason stands in its place.
  const canStart = grantsAllowSomeAgent(actor.grants, "training:run");
  return (
    <>
      <PageHeader
        eyebrow={<Link href="/training" className="hover:text-ink">Training</Link>}
        title="Sweeps"
        description="A family's config over a grid or random samples × seeds, run as ordinary training runs and ranked by final validation reward with an interval over the seeds."
        actions={
          <>
            <Link href="/training/compare" className="rounded-md border border-line bg-panel px-3 py-2 text-sm font-medium text-ink hover:bg-panel-2">Compare runs</Link>
            {canStart ? (
              <Link href="/training/sweeps/new" className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3 py-2 text-sm font-medium text-accent-ink hover:brightness-110">
                <Plus className="h-4 w-4" /> New sweep
              </Link>
            ) : (
              <NotAllowedNote subject="Starting a sweep" scope="training:run" testId="sweep-not-allowed" className="max-w-64" />
            )}
          </>
        }
      />
      <SweepsList />
    </>
  );
}
