import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { SecurityPanel } from "@/components/settings/security-panel";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Security" };

export default async function SecurityPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "account:self")) return <NotAllowed scope="account:self" />;
  return (
    <>
      <PageHeader title="Security" description="Your passkeys. Approving a release is signed with one of them, so register at least one and check that it works." />
      <SecurityPanel />
    </>
  );
}
