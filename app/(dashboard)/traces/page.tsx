import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { TracesView } from "@/components/store/traces-view";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Traces" };

export default async function TracesPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader title="Traces" description="Spans of one rollout or attempt, as a tree with a waterfall, or as a table." />
      <Suspense>
        <TracesView />
      </Suspense>
    </>
  );
}
