import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { RunnersView } from "@/components/store/runners-view";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Runners" };

export default async function RunnersPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader title="Runners" description="Workers pulling from this store, with their heartbeats and what each one holds." />
      <Suspense>
        <RunnersView />
      </Suspense>
    </>
  );
}
