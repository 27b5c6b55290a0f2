import type { Metadata } from "next";
import Link from "next/link";
import { Play } from "lucide-react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { RunsList } from "@/components/training/runs-list";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Training" };

export default async function TrainingPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader
        title="Training"
        description="Training runs with live progress, reward curves, evidence and the candidates each produced. Runners execute the rollouts; a trainer worker learns from their spans."
        actions={
          <>
            <Link href="/training/sweeps" className="rounded-md border border-line bg-panel px-3 py-2 text-sm font-medium text-ink hover:bg-panel-2">
              Sweeps
            </Link>
            <Link href="/training/new" className="inline-flex items-center gap-1.5 rounded-md bg-accent px-3 py-2 text-sm font-medium text-accent-ink hover:brightness-110">
              <Play className="h-4 w-4" /> Start a run
            </Link>
          </>
        }
      />
      <RunsList />
    </>
  );
}
