import type { Metadata } from "next";
import { NotAllowed } from "@/components/auth/not-allowed";
import { RegistriesCatalog } from "@/components/registries/catalog";
import { PageHeader } from "@/components/ui/page-header";
import { actorCan } from "@/server/auth/actor";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Registries" };

export default async function RegistriesPage() {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  return (
    <>
      <PageHeader title="Registries" description="What the gate judges against: evaluators, tool contracts, policies, boundaries and the exams. Every change is a new version; see what a change makes stale before you publish it." />
      <RegistriesCatalog />
    </>
  );
}
