import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { PATH_HEADER } from "@/lib/auth/public-paths";
import { decodePathSegments } from "@/lib/http/path-segments";
import { NotAllowed } from "@/components/auth/not-allowed";
import { RegistryEntryView } from "@/components/registries/entry-view";
import { isAreaKind, KIND_INFO } from "@/lib/registries/kinds";
import { actorCan } from "@/server/auth/actor";
import { getDatabase } from "@/server/db/client";
import { registryEntry } from "@/server/policy/catalog";
import { requireActor } from "@/app/current-actor";

type Params = { params: Promise<{ kind: string; name: string }> };

/**
 * The record's name decoded exactly once from the request's own path (Next leaves `%2F` encoded in params,
 * and names such as `<agent>/held-out` hold a slash); the params' value when the path is not at hand.
 */
async function nameFromPath(fallback: string): Promise<string | null> {
  const path = (await headers()).get(PATH_HEADER);
  if (!path) return fallback;
  const segments = decodePathSegments(path.split("?")[0]!);
  return segments && segments.length === 3 && segments[0] === "registries" ? segments[2]! : null;
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { kind } = await params;
  const name = (await nameFromPath((await params).name)) ?? "";
  return { title: isAreaKind(kind) ? `${name} · ${KIND_INFO[kind].label}` : "Registries" };
}

export default async function RegistryEntryPage({ params }: Params) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const { kind } = await params;
  const name = await nameFromPath((await params).name);
  // An unknown kind or a name never published is a 404, not an empty page.
  if (!isAreaKind(kind) || name === null || !(await registryEntry((await getDatabase()).db, kind, name))) notFound();
  return <RegistryEntryView kind={kind} name={name} />;
}
