import type { Metadata } from "next";
import Link from "next/link";
import { NotAllowed } from "@/components/auth/not-allowed";
import { NewRecord } from "@/components/registries/new-record";
import { PageHeader } from "@/components/ui/page-header";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "New registry record" };

export default async function NewRegistryRecordPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader eyebrow={<Link href="/registries" className="hover:underline">← Registries</Link>} title="New registry record" description="Its first version: checked by the server against the kind's schema; preview what it makes stale, then publish." />
      <NewRecord />
    </>
  );
}
