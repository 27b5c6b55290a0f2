import type { Metadata } from "next";
import Link from "next/link";
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
      <PageHeader title="Datasets" description="Content-addressed training-data snapshots: what they hold, where they came from, and the pipeline (with PII redaction) that made them. Receipts pin them by digest."
        actions={actorCan(actor, "training:run") ? <Link href="/datasets/new" className="rounded-md bg-accent px-3 py-2 text-sm font-medium text-accent-ink hover:brightness-110">New snapshot</Link> : undefined}
      />
      <DatasetsList />
    </>
  );
}
