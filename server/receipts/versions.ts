// The versions in force for an agent right now, read from the registries and the approved-default pointer:
// what `isFresh` compares each recorded check result against. A missing registry record reads as
// "(none registered)", so evidence recorded against a real version goes stale rather than silently holding.
import type { Db, Tx } from "@/server/db/client";
import { digestOf, type Digest } from "@/server/digest";
import { readPointer } from "@/server/candidates/pointers";
import { evaluatorKey, type VersionSet } from "@/server/gate/versions";
import { currentEntries, type RegistryKind, type RegistryRecord } from "./registries";

const NONE = "(none registered)";

/** The newest current record of a kind (what the gate resolves against). */
export function latestOf(entries: readonly RegistryRecord[], kind: RegistryKind): RegistryRecord | undefined {
  return entries.filter((e) => e.kind === kind).sort((a, b) => +b.createdAt - +a.createdAt || b.seq - a.seq)[0];
}

/**
 * The evaluator in force for an agent: its newest current evaluator record. Freshness compares evidence with it,
 * and a gate run judges with it (gate-run/context.ts) — one definition, so a re-run can make evidence fresh.
 */
export const evaluatorInForce = (entries: readonly RegistryRecord[]) => latestOf(entries, "evaluator");

/** The VersionSet of current registry records; `parent` is the approved default (or `parentIfNoDefault`). */
export function versionsFrom(entries: readonly RegistryRecord[], parent: Digest): VersionSet {
  const evaluator = evaluatorInForce(entries);
  const tasks = latestOf(entries, "task_distribution");
  const retry = latestOf(entries, "retry_policy");
  const server = latestOf(entries, "model_server");
  const tools = entries.filter((e) => e.kind === "tool_contract");
  return {
    evaluator: evaluator ? evaluatorKey({ id: evaluator.name, version: evaluator.version, digest: evaluator.digest }) : NONE,
    toolContracts: Object.fromEntries(tools.map((t) => [t.name, t.digest])),
    taskDistribution: tasks ? `${tasks.name}@${tasks.version}` : NONE,
    parent,
    retryPolicy: retry?.digest ?? digestOf({ retryPolicy: NONE }),
    permissions: tools.map((t) => t.name).sort(),
    destinations: entries.filter((e) => e.kind === "destination").map((e) => e.name).sort(),
    modelServer: server ? `${server.name}@${server.version}` : NONE,
  };
}

/**
 * The versions in force for `agent`. The parent in force is the agent's approved default; before the agent
 * has one, `parentIfNoDefault` (the receipt's own declared parent) stands in, so nothing goes stale by it.
 * When the approved default is `self` — the candidate being judged, promoted on this very receipt — its declared
 * parent stays the parent in force: its own promotion must not make its evidence stale.
 */
export async function currentVersions(db: Db | Tx, agent: string, opts: { parentIfNoDefault?: Digest; self?: Digest } = {}): Promise<VersionSet> {
  return versionsFrom(await currentEntries(db, agent), await parentInForce(db, agent, opts));
}

/** The parent in force for `agent` (see currentVersions). */
export async function parentInForce(db: Db | Tx, agent: string, opts: { parentIfNoDefault?: Digest; self?: Digest } = {}): Promise<Digest> {
  const pointer = await readPointer(db, agent, "approved_default");
  const promotedSelf = pointer !== null && opts.self !== undefined && pointer.digest === opts.self;
  return (promotedSelf ? opts.parentIfNoDefault : (pointer?.digest as Digest | undefined)) ?? opts.parentIfNoDefault ?? digestOf({ approvedDefault: NONE });
}
