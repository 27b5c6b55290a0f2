import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { DatasetsList } from "@/components/datasets/datasets-list";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader title="Datasets" description="Content-addressed training-data snapshots: what they hold, where they came from, and the pipeline (with PII redaction) that made them. Receipts pin them by digest." />
      <DatasetsList />
    </>
  );
}
