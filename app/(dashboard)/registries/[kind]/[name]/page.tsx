import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NotAllowed } from "@/components/auth/not-allowed";
import { RegistryEntryView } from "@/components/registries/entry-view";
import { isAreaKind, KIND_INFO } from "@/lib/registries/kinds";
import { actorCan } from "@/server/auth/actor";
import { getDatabase } from "@/server/db/client";
import { registryEntry } from "@/server/policy/catalog";
import { requireActor } from "@/app/current-actor";

type Params = { params: Promise<{ kind: string; name: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { kind, name } = await params;
  return { title: isAreaKind(kind) ? `${name} · ${KIND_INFO[kind].label}` : "Registries" };
}

export default async function RegistryEntryPage({ params }: Params) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const { kind, name } = await params;
  // An unknown kind or a name never published is a 404, not an empty page.
  if (!isAreaKind(kind) || !(await registryEntry((await getDatabase()).db, kind, name))) notFound();
  return <RegistryEntryView kind={kind} name={name} />;
}
