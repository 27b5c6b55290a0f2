import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { ResourcesView } from "@/components/store/resources-view";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Resources" };

export default async function ResourcesPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader title="Resources" description="Resource versions with their digests, and a diff between any two versions." />
      <Suspense>
        <ResourcesView />
      </Suspense>
    </>
  );
}
