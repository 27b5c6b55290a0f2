import type { Metadata } from "next";
import Link from "next/link";
import { Play } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed, NotAllowedNote } from "@/components/auth/not-allowed";
import { TrainingLists } from "@/components/training/training-lists";
import { actorCan } from "@/server/auth/actor";
import { grantsAllowSomeAgent } from "@/lib/auth/scopes";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Training" };

export default async function TrainingPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  // A viewer gets no button they cannot use: the reason stands in its place.
  const canStart = grantsAllowSomeAgent(actor.grants, "training:run");
  return (
    <>
      <PageHeader
        title="Training"
        description="Lightgate's training runs and the Agent Lightning trainings that write through this store, with live progress, reward curves and evidence. Runners execute the rollouts."
        actions={
          <>
            <Link href="/training/sweeps" className="rounded-md border border-line bg-panel px-3 py-2 text-sm font-medium text-ink hover:bg-panel-2">
              Sweeps
            </Link>
            {canStart ? (
              <Link href="/training/new" className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3 py-2 text-sm font-medium text-accent-ink hover:brightness-110">
                <Play className="h-4 w-4" /> Start a run
              </Link>
            ) : (
              <NotAllowedNote subject="Starting a run" scope="training:run" testId="start-not-allowed" className="max-w-64" />
            )}
          </>
        }
      />
      <TrainingLists />
    </>
  );
}
