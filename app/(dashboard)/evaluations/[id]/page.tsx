import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { NotAllowed } from "@/components/auth/not-allowed";
import { EvaluationDetail } from "@/components/evaluations/evaluation-detail";
import { getDatabase } from "@/server/db/client";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Evaluation" };

export default async function EvaluationPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const { id } = await params;
  if (!(await (await getDatabase()).db.evaluationJob.findUnique({ where: { id }, select: { id: true } }))) notFound();
  return <EvaluationDetail id={id} />;
}
