// Check 1's evidence and the gate's routing: every pin of stage 1 resolved against what is stored now, and the
// exact candidate and parent versions copied under immutable resources ids (`lg-pin-<16 hex of the digest>`)
// that any Agent Lightning runner fetches unchanged — a rollout names a resources id, not a version, so the
// gate gives each exact version an id of its own that nothing can overwrite (the store refuses writes to it).
import type { Database, Db } from "@/server/db/client";
import type { Digest } from "@/server/digest";
import type { Resolution } from "@/server/gate/receipt/stage3";
import type { ResourceRef, SnapshotRef } from "@/server/gate/receipt/refs";
import { GATE_PIN_PREFIX } from "@/server/store/resources";
import { storeFor } from "@/server/store";
import { trainingResourcesRef } from "../declarations";
import { latestOf } from "../versions";
import { isPinned, type GateRunContext } from "./context";

export type PinnedResource = { resolution: Resolution; pinId: string | null };

export const pinIdFor = (digest: string) => `${GATE_PIN_PREFIX}${digest.replace(/^sha256:/, "").slice(0, 16)}`;

/** Resolves an exact resources version in the store and pins it; unresolvable says why, and pins nothing. */
export async function pinResource(database: Database, ref: { resourceId: string; version?: number; digest?: string }): Promise<PinnedResource> {
  if (ref.version === undefined || ref.digest === undefined) return { resolution: { status: "unresolvable", reason: `${ref.resourceId} has no bound version and digest` }, pinId: null };
  const store = storeFor(database);
  const v = await store.resourcesVersion(ref.resourceId, ref.version);
  if (!v) return { resolution: { status: "unresolvable", reason: `${ref.resourceId} v${ref.version} is not in the store` }, pinId: null };
  if (v.digest !== ref.digest) return { resolution: { status: "unresolvable", reason: `${ref.resourceId} v${ref.version} has digest ${v.digest}, not the pinned ${ref.digest}` }, pinId: null };
  const pinId = pinIdFor(v.digest);
  const pinned = await store.pinResources(pinId, v.resources);
  // A pin id is derived from the digest, so a different body under it means the store was tampered with.
  if (pinned.digest !== v.digest) return { resolution: { status: "unresolvable", reason: `the pin ${pinId} holds ${pinned.digest}, not ${v.digest}` }, pinId: null };
  return { resolution: { status: "resolved", digest: v.digest }, pinId };
}

function datasetResolution(d: GateRunContext["heldOut"]): Resolution {
  return isPinned(d) ? { status: "resolved", digest: d.digest } : { status: "unresolvable", reason: d.unresolvable };
}

/**
 * The training-data pin: a dataset snapshot by digest; a task distribution (`td-…`, families that collect their
 * own experience) against the digest the agent's task_distribution entry declares; the resources ids a declared
 * receipt trained on (`rsids-…`) by recomputing their digest and finding each in the store.
 */
async function trainingResolution(database: Database, ctx: GateRunContext, ref: SnapshotRef): Promise<Resolution> {
  const db: Db = database.db;
  if (ref.id.startsWith("td-")) {
    const declared = (latestOf(ctx.entries, "task_distribution")?.body as { digest?: unknown } | undefined)?.digest;
    if (typeof declared !== "string") return { status: "unresolvable", reason: "the pin names a task distribution, and the agent's task_distribution entry declares no digest" };
    return declared === ref.digest ? { status: "resolved", digest: ref.digest as Digest } : { status: "unresolvable", reason: `the registered task distribution is ${declared}, not the pinned ${ref.digest}` };
  }
  if (ref.id.startsWith("rsids-")) {
    const declaration = await db.receiptDeclaration.findUnique({ where: { candidateId: ctx.candidateId }, select: { declaration: true } });
    const ids = (JSON.parse(declaration?.declaration ?? "{}") as { trainingResourcesIds?: unknown }).trainingResourcesIds;
    if (!Array.isArray(ids) || !ids.every((i) => typeof i === "string")) return { status: "unresolvable", reason: `no declaration lists the resources ids behind ${ref.id}` };
    const { digest } = trainingResourcesRef(ids as string[]);
    if (digest !== ref.digest) return { status: "unresolvable", reason: `the declared resources ids digest to ${digest}, not the pinned ${ref.digest}` };
    const found = await db.storeResources.count({ where: { resourcesId: { in: ids } } });
    return found === ids.length ? { status: "resolved", digest } : { status: "unresolvable", reason: `${ids.length - found} of the ${ids.length} training resources ids are not in the store` };
  }
  const row = await db.datasetSnapshot.findUnique({ where: { digest: ref.digest } });
  return row ? { status: "resolved", digest: row.digest as Digest } : { status: "unresolvable", reason: `no dataset snapshot with digest ${ref.digest}` };
}

export type GatePins = {
  candidate: PinnedResource;
  parent: PinnedResource;
  resolution: Record<"candidate" | "parent" | "trainingData" | "heldOutData" | "evaluator", Resolution>;
};

export async function resolvePins(database: Database, ctx: GateRunContext): Promise<GatePins> {
  const s1 = ctx.stage1;
  const candidate = await pinResource(database, s1.candidate);
  const parent = await pinResource(database, s1.parent satisfies ResourceRef);
  // Stage 1's declaration (check 1); the evaluator this run judges with is recorded as `producedBy.evaluator`.
  const evaluator: Resolution = ctx.declaredEvaluator;
  return {
    candidate,
    parent,
    resolution: {
      candidate: candidate.resolution,
      parent: parent.resolution,
      trainingData: await trainingResolution(database, ctx, s1.data.training),
      heldOutData: datasetResolution(ctx.heldOut),
      evaluator,
    },
  };
}
