import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { RunDetail } from "@/components/training/run-detail";
import { getDatabase } from "@/server/db/client";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Training run" };

export default async function RunPage({ params }: { params: Promise<{ runId: string }> }) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const { runId } = await params;
  const run = await (await getDatabase()).db.trainingRun.findUnique({ where: { id: runId }, select: { id: true, name: true } });
  if (!run) notFound();
  return (
    <>
      {/* The run's name when it has one (W&B's display name), its id beneath. */}
      <PageHeader eyebrow="Training run" title={run.name ?? runId} description={run.name ? <span className="font-mono text-xs">{runId}</span> : undefined} />
      <RunDetail runId={runId} />
    </>
  );
}
