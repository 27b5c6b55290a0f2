import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { AuditView } from "@/components/audit/audit-view";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Audit" };

export default async function AuditPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "audit:read")) return <NotAllowed scope="audit:read" />;
  return (
    <>
      <PageHeader title="Audit" description="The hash-chained record of every change, and whether the chain is intact." />
      <AuditView />
    </>
  );
}
