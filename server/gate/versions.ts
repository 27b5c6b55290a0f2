// The inputs a check result depends on. Each result records the versions it was computed against, so a later
// change (a new evaluator, tool contract, parent, permission…) marks exactly the affected checks stale.
import { z } from "zod";
import { ZDigest } from "./digest";

export const ZVersionSet = z.object({
  /** Pinned evaluator, as `<id>@<version>#<digest>` (see evaluatorKey). */
  evaluator: z.string().min(1),
  /** Tool name → digest of its contract (schema + semantics). */
  toolContracts: z.record(z.string().min(1), ZDigest),
  /** Version (or digest) of the task distribution the agent serves. */
  taskDistribution: z.string().min(1),
  /** The exact parent in force: for a judged candidate, the agent's approved default. */
  parent: ZDigest,
  /** Digest of the retry policy (rollout config + declared retry budget). */
  retryPolicy: ZDigest,
  /** Permissions (tools and grants) in scope. */
  permissions: z.array(z.string().min(1)),
  /** Destinations (systems the agent may change) in scope. */
  destinations: z.array(z.string().min(1)),
  /** The model server the candidate runs on (endpoint + server version). */
  modelServer: z.string().min(1),
});
export type VersionSet = z.infer<typeof ZVersionSet>;
export type VersionKey = keyof VersionSet;
export const VERSION_KEYS = Object.keys(ZVersionSet.shape) as VersionKey[];

/** Keys compared as sets where only an *addition* is a change: a canary that covered more still covers less. */
export const WIDENING_KEYS = ["permissions", "destinations"] as const satisfies readonly VersionKey[];

export const CHECK_IDS = [1, 2, 3, 4, 5, 6, 7] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/**
 * Which inputs each check depends on. A previous canary (6) and its rollback/approval (7) never cover a new
 * permission, destination, model server or — for the canary — retry policy.
 */
export const CHECK_INPUTS: Record<CheckId, readonly VersionKey[]> = {
  1: ["evaluator", "parent"],
  2: ["toolContracts", "taskDistribution"],
  3: ["retryPolicy"],
  4: ["evaluator", "parent", "taskDistribution"],
  5: ["evaluator", "parent", "taskDistribution"],
  6: ["toolContracts", "permissions", "destinations", "modelServer", "retryPolicy"],
  7: ["parent", "modelServer", "permissions", "destinations"],
};

export function pickVersions(versions: VersionSet, keys: readonly VersionKey[]): Partial<VersionSet> {
  const out: Partial<VersionSet> = {};
  for (const key of keys) Object.assign(out, { [key]: versions[key] });
  return out;
}

export function evaluatorKey(e: { id: string; version: string; digest: string }): string {
  return `${e.id}@${e.version}#${e.digest}`;
}

/** The inverse of evaluatorKey; null for a key that names no evaluator (e.g. "(none registered)"). */
export function evaluatorFromKey(key: string): { id: string; version: string; digest: `sha256:${string}` } | null {
  const m = /^(.+)@([^@#]+)#(sha256:[0-9a-f]{64})$/.exec(key);
  return m ? { id: m[1]!, version: m[2]!, digest: m[3] as `sha256:${string}` } : null;
}
