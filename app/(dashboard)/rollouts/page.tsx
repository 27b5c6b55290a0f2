import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { RolloutsView } from "@/components/store/rollouts-view";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Rollouts" };

export default async function RolloutsPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader title="Rollouts" description="Every task a runner attempted, its attempts and the reason each one started." />
      <Suspense>
        <RolloutsView />
      </Suspense>
    </>
  );
}
