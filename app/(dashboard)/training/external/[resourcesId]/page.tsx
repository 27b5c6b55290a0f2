import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { PATH_HEADER } from "@/lib/auth/public-paths";
import { decodePathSegments } from "@/lib/http/path-segments";
import { PageHeader } from "@/components/ui/page-header";
import { NotAllowed } from "@/components/auth/not-allowed";
import { ExternalTrainingDetail } from "@/components/training/external-detail";
import { actorCan } from "@/server/auth/actor";
import { getDatabase } from "@/server/db/client";
import { isExternalTraining } from "@/server/training/external";
import { requireActor } from "@/app/current-actor";

export const metadata: Metadata = { title: "Agent Lightning training" };

const MAX_ID = 512; // the store's bound on a resources id

/**
 * The resources id decoded exactly once from the request's own path (Next leaves `%2F` encoded in params, and an
 * Agent Lightning id is any text); the params' value when the path is not at hand; null when it cannot be an id.
 */
async function idFromPath(fallback: string): Promise<string | null> {
  const path = (await headers()).get(PATH_HEADER);
  if (!path) return fallback;
  const segments = decodePathSegments(path.split("?")[0]!);
  return segments && segments.length === 3 && segments[0] === "training" && segments[1] === "external" ? segments[2]! : null;
}

export default async function ExternalTrainingPage({ params }: { params: Promise<{ resourcesId: string }> }) {
  const actor = await requireActor();
  if (!actorCan(actor, "dashboard:read")) return <NotAllowed scope="dashboard:read" />;
  const id = await idFromPath((await params).resourcesId);
  // Unknown, too long, or one of Lightgate's own lineages (its run page shows it): 404, never an error page.
  if (id === null || id.length === 0 || id.length > MAX_ID || id.includes("\u0000") || !(await isExternalTraining(await getDatabase(), id))) notFound();
  return (
    <>
      <PageHeader eyebrow="Agent Lightning training" title={<span className="font-mono [overflow-wrap:anywhere]">{id}</span>} description="Watched from the store alone: the resources versions an algorithm wrote and the rollouts that ran each of them." />
      <ExternalTrainingDetail resourcesId={id} />
    </>
  );
}
