// What a gate run needs to know before it asks runners for anything, from the database (cached per run, below):
// the candidate's stage 1, the registry entries in force for its agent (the pinned evaluator's scoring, the
// tool contracts, the model server's prices, the retry policy) and the published datasets it pins.
import type { Database, Db } from "@/server/db/client";
import type { Digest } from "@/server/digest";
import { contractFacts, pricingOf, ZScoringSpec, type ScoringSpec, type TokenPricing, type ToolContractFacts } from "@/server/gate/evidence/gate-rollouts";
import { ZStage1, type Stage1 } from "@/server/gate/receipt/stage1";
import type { RolloutConfig } from "@/server/store/types";
import { excludedIdentities } from "../duties";
import { currentEntries, type RegistryRecord } from "../registries";
import { latestOf } from "../versions";

export type GateCaseRow = { caseId: string; input: unknown; family: string; protected: boolean; expected: unknown };
export type PinnedDataset = { id: string; digest: Digest; cases: GateCaseRow[] };

export type GateRunContext = {
  runId: string;
  candidateId: string;
  stage1: Stage1;
  /** `"<id>@<version>"`, as the runner must name it on its reward span. */
  evaluatorName: string;
  /** The pinned evaluator's registry body, when the registry holds that exact version with the pinned digest. */
  evaluatorBody: unknown;
  scoring: { ok: true; spec: ScoringSpec } | { ok: false; reason: string };
  heldOut: PinnedDataset | { unresolvable: string };
  canary: PinnedDataset | { unresolvable: string } | null;
  /** The identities whose served results never count on this candidate, with what each did for it (duties.ts). */
  excluded: ReadonlyMap<string, string>;
  contracts: ReadonlyMap<string, ToolContractFacts>;
  pricing: TokenPricing;
  retry: Pick<RolloutConfig, "max_attempts" | "retry_condition">;
  entries: readonly RegistryRecord[];
};

export const isPinned = (d: PinnedDataset | { unresolvable: string } | null): d is PinnedDataset => d !== null && "cases" in d;

const parsed = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

/** A published gate dataset by the id and digest stage 1 pins; unresolvable says why. */
async function pinnedDataset(db: Db, pin: { id: string; digest: string }, kind: "held_out" | "canary"): Promise<PinnedDataset | { unresolvable: string }> {
  const row = await db.gateDataset.findUnique({ where: { id: pin.id } });
  if (!row) return { unresolvable: `${pin.id} is not a published gate dataset, so the gate cannot ask runners for its cases (a receipt whose evidence was imported cannot be re-run)` };
  if (row.kind !== kind) return { unresolvable: `${pin.id} is a ${row.kind} dataset, not ${kind}` };
  if (row.digest !== pin.digest) return { unresolvable: `${pin.id} has digest ${row.digest}, not the pinned ${pin.digest}` };
  const cases = await db.gateDatasetCase.findMany({ where: { datasetId: row.id }, orderBy: { ordinal: "asc" } });
  return {
    id: row.id,
    digest: row.digest as Digest,
    cases: cases.map((c) => ({ caseId: c.caseId, input: parsed(c.input), family: c.family, protected: c.protected, expected: parsed(c.expected) })),
  };
}

/** The agent's retry policy entry as rollout config (`{"rolloutConfig": {max_attempts, retry_condition}}`); one attempt by default. */
function retryFrom(entries: readonly RegistryRecord[]): GateRunContext["retry"] {
  const body = latestOf(entries, "retry_policy")?.body as { rolloutConfig?: { max_attempts?: unknown; retry_condition?: unknown } } | undefined;
  const max = body?.rolloutConfig?.max_attempts;
  const conditions = body?.rolloutConfig?.retry_condition;
  const allowed = ["failed", "timeout", "unresponsive"] as const;
  return {
    max_attempts: typeof max === "number" && Number.isInteger(max) && max >= 1 ? Math.min(max, 10) : 1,
    retry_condition: Array.isArray(conditions) ? allowed.filter((c) => conditions.includes(c)) : [],
  };
}

// A run is stepped every few hundred milliseconds. Its stage 1 (candidate rows are never updated), the
// evaluator pinned by digest and the content-addressed datasets cannot change, so they are read once for the
// run's lifetime; the registry entries in force (tool contracts, prices, retry policy) can, so they are re-read
// when older than a few seconds.
const ENTRIES_MS = 5_000;
const CACHE_MAX = 64;
type Fixed = Omit<GateRunContext, "contracts" | "pricing" | "retry" | "entries">;
type Live = Pick<GateRunContext, "contracts" | "pricing" | "retry" | "entries">;
const cache = new Map<string, { fixed: Promise<Fixed>; at: number; live: Promise<Live> }>();

export async function gateRunContext(database: Database, run: { id: string; candidateId: string }): Promise<GateRunContext> {
  const now = Date.now();
  let held = cache.get(run.id);
  if (!held) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    const fixed = loadFixed(database, run);
    held = { fixed, at: now, live: fixed.then((f) => loadLive(database.db, f.stage1.agent)) };
    cache.set(run.id, held);
  } else if (now - held.at >= ENTRIES_MS) {
    held.at = now;
    // A pin that did not resolve may resolve later (published meanwhile): only what resolved is kept for good.
    held.fixed = held.fixed.then((f) => (f.evaluatorBody === null || !isPinned(f.heldOut) || (f.canary && !isPinned(f.canary)) ? loadFixed(database, run) : f));
    held.live = held.fixed.then((f) => loadLive(database.db, f.stage1.agent));
  }
  const entry = held;
  try {
    return { ...(await entry.fixed), ...(await entry.live) };
  } catch (e) {
    if (cache.get(run.id) === entry) cache.delete(run.id);
    throw e;
  }
}

async function loadLive(db: Db, agent: string): Promise<Live> {
  const entries = await currentEntries(db, agent);
  const contracts = new Map(entries.filter((r) => r.kind === "tool_contract").map((r) => [r.name, contractFacts(r.body)]));
  return { contracts, pricing: pricingOf(latestOf(entries, "model_server")?.body), retry: retryFrom(entries), entries };
}

/** The pinned evaluator's registry body, when the registry holds that exact version with the pinned digest; else null. */
export async function pinnedEvaluatorBody(db: Db, stage1: Pick<Stage1, "agent" | "evaluator">): Promise<unknown> {
  const e = stage1.evaluator;
  const row = await db.registryEntry.findFirst({ where: { kind: "evaluator", name: e.id, version: e.version, agent: { in: [stage1.agent, "*"] } }, orderBy: { agent: "desc" } });
  return row && row.digest === e.digest ? (JSON.parse(row.body) as unknown) : null;
}

async function loadFixed(database: Database, run: { id: string; candidateId: string }): Promise<Fixed> {
  const db = database.db;
  const candidate = await db.candidate.findUniqueOrThrow({ where: { id: run.candidateId } });
  const stage1 = ZStage1.parse(JSON.parse(candidate.stage1));
  const e = stage1.evaluator;
  const evaluatorBody = await pinnedEvaluatorBody(db, stage1);
  const spec = ZScoringSpec.safeParse(evaluatorBody);
  return {
    runId: run.id,
    candidateId: run.candidateId,
    stage1,
    evaluatorName: `${e.id}@${e.version}`,
    evaluatorBody,
    scoring: spec.success
      ? { ok: true, spec: spec.data }
      : { ok: false, reason: evaluatorBody === null ? `evaluator ${e.id}@${e.version} is not in the registry with the pinned digest` : `evaluator ${e.id}@${e.version} declares no scoring the gate can read (body.scoring must be "runner_reward" or "expected_output" with output_attribute)` },
    heldOut: await pinnedDataset(db, stage1.data.heldOut, "held_out"),
    canary: stage1.data.canary ? await pinnedDataset(db, stage1.data.canary, "canary") : null,
    excluded: await excludedIdentities(db, candidate, stage1),
  };
}
