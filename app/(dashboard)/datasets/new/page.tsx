import type { Metadata } from "next";
import Link from "next/link";
import { NotAllowed } from "@/components/auth/not-allowed";
import { CreateSnapshotForm } from "@/components/datasets/create-snapshot-form";
import { PageHeader } from "@/components/ui/page-header";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "New snapshot" };

export default async function NewSnapshotPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader eyebrow={<Link href="/datasets" className="hover:underline">← Datasets</Link>} title="New snapshot" description="From records you paste or load, or from an existing snapshot, through the pipeline steps you choose." />
      <CreateSnapshotForm />
    </>
  );
}
