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
  if (!(await (await getDatabase()).db.trainingRun.findUnique({ where: { id: runId }, select: { id: true } }))) notFound();
  return (
    <>
      <PageHeader eyebrow="Training run" title={runId} />
      <RunDetail runId={runId} />
    </>
  );
}
