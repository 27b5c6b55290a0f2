import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { NotAllowed } from "@/components/auth/not-allowed";
import { DatasetDetail } from "@/components/datasets/dataset-detail";
import { getDatabase } from "@/server/db/client";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Dataset snapshot" };

export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const { id } = await params;
  if (!(await (await getDatabase()).db.datasetSnapshot.findUnique({ where: { id }, select: { id: true } }))) notFound();
  return <DatasetDetail id={id} />;
}
