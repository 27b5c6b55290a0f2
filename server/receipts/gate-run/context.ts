// What a gate run needs to know before it asks runners for anything, and what it computes with — one object,
// from which the rollouts' metadata, the judging and the sealed link's `versions`/`producedBy` are all taken:
// the candidate's stage 1, the registry entries in force for its agent when the run started (the evaluator
// that judges, the tool contracts, the model server's prices, the retry policy, the task distribution), the
// parent in force then, and the published datasets stage 1 pins. A run judges with the versions in force at
// its start — a re-run with those in force at the re-run — and records which; stage 1 keeps its declaration.
import type { Database, Db } from "@/server/db/client";
import { digestOf, type Digest } from "@/server/digest";
import { contractFacts, pricingOf, ZScoringSpec, type ScoringSpec, type TokenPricing, type ToolContractFacts } from "@/server/gate/evidence/gate-rollouts";
import type { EvaluatorRef } from "@/server/gate/receipt/refs";
import { ZStage1, type Stage1 } from "@/server/gate/receipt/stage1";
import type { Resolution } from "@/server/gate/receipt/stage3";
import { evaluatorKey, type VersionSet } from "@/server/gate/versions";
import type { RolloutConfig } from "@/server/store/types";
import { excludedIdentities } from "../duties";
import { currentEntries, type RegistryKind, type RegistryRecord } from "../registries";
import { evaluatorInForce, latestOf, parentInForce, versionsFrom } from "../versions";

export type GateCaseRow = { caseId: string; input: unknown; family: string; protected: boolean; expected: unknown };
export type PinnedDataset = { id: string; digest: Digest; cases: GateCaseRow[] };

/** A registry record by its immutable identity (published versions are never edited). */
export type RegistryPin = { kind: string; name: string; agent: string; version: string };
/** What was in force when the run started, kept in the run's state so every step — in any process — uses it. */
export type InForceAtStart = { registry: RegistryPin[]; parent: Digest };

export type GateRunContext = {
  runId: string;
  candidateId: string;
  stage1: Stage1;
  /** The evaluator this run judges with: the one in force when it started (stage 1's pin when none is). */
  evaluator: EvaluatorRef;
  /** `"<id>@<version>"`, as the runner must name it on its reward span. */
  evaluatorName: string;
  /** That evaluator's registry body, sent to runners as `lightgate.evaluator_spec`; null when it is not in the registry. */
  evaluatorBody: unknown;
  /** Stage 1's declared evaluator against the registry (check 1 reads it). */
  declaredEvaluator: Resolution;
  scoring: { ok: true; spec: ScoringSpec } | { ok: false; reason: string };
  heldOut: PinnedDataset | { unresolvable: string };
  canary: PinnedDataset | { unresolvable: string } | null;
  /** The identities whose served results never count on this candidate, with what each did for it (duties.ts). */
  excluded: ReadonlyMap<string, string>;
  contracts: ReadonlyMap<string, ToolContractFacts>;
  pricing: TokenPricing;
  retry: Pick<RolloutConfig, "max_attempts" | "retry_condition">;
  entries: readonly RegistryRecord[];
  /** The versions this run computes with — what every link and check result it seals records. */
  versions: VersionSet;
  inForce: InForceAtStart;
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

// A run is stepped every few hundred milliseconds. Its stage 1 (candidate rows are never updated) and the
// content-addressed datasets cannot change, and once it started, what was in force then is fixed in its state:
// all read once for the run's lifetime. Only a dataset pin that did not resolve is looked up again (published
// meanwhile), every few seconds.
const RETRY_UNRESOLVED_MS = 5_000;
const CACHE_MAX = 64;
type Fixed = Pick<GateRunContext, "runId" | "candidateId" | "stage1" | "declaredEvaluator" | "heldOut" | "canary" | "excluded"> & { parentDigest: Digest; digest: Digest; declaredBody: unknown };
type RunRef = { id: string; candidateId: string; pins: string | null };
const cache = new Map<string, { fixed: Promise<Fixed>; at: number; started: boolean; context: Promise<GateRunContext> }>();

/** What the run's state recorded as in force at its start; null before the run started. */
function inForceOf(run: RunRef): InForceAtStart | null {
  if (!run.pins) return null;
  const state = JSON.parse(run.pins) as { inForce?: InForceAtStart };
  return state.inForce ?? null;
}

export async function gateRunContext(database: Database, run: RunRef): Promise<GateRunContext> {
  const now = Date.now();
  const recorded = inForceOf(run);
  let held = cache.get(run.id);
  if (!held || (recorded && !held.started)) {
    if (!held && cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    const fixed = held?.fixed ?? loadFixed(database, run);
    held = { fixed, at: now, started: recorded !== null, context: fixed.then((f) => withInForce(database.db, f, recorded)) };
    cache.set(run.id, held);
  } else if (now - held.at >= RETRY_UNRESOLVED_MS) {
    held.at = now;
    const before = held.fixed;
    held.fixed = before.then((f) => (!isPinned(f.heldOut) || (f.canary && !isPinned(f.canary)) ? loadFixed(database, run) : f));
    held.context = Promise.all([before, held.fixed, held.context]).then(([a, b, c]) => (a === b ? c : withInForce(database.db, b, recorded)));
  }
  const entry = held;
  try {
    return await entry.context;
  } catch (e) {
    if (cache.get(run.id) === entry) cache.delete(run.id);
    throw e;
  }
}

const toRecord = (r: { kind: string; name: string; agent: string; seq: number; version: string; digest: string; body: string; createdById: string; createdAt: Date }): RegistryRecord => ({
  ...r,
  kind: r.kind as RegistryKind,
  digest: r.digest as Digest,
  body: JSON.parse(r.body) as unknown,
});

/** The registry records a started run recorded, by identity; those in force now before it starts. */
async function entriesFor(db: Db, f: Fixed, recorded: InForceAtStart | null): Promise<InForceAtStart & { entries: RegistryRecord[] }> {
  if (!recorded) {
    const entries = await currentEntries(db, f.stage1.agent);
    const parent = await parentInForce(db, f.stage1.agent, { parentIfNoDefault: f.parentDigest, self: f.digest });
    return { entries, parent, registry: entries.map((e) => ({ kind: e.kind, name: e.name, agent: e.agent, version: e.version })) };
  }
  const rows = recorded.registry.length ? await db.registryEntry.findMany({ where: { OR: recorded.registry.map((p) => ({ kind: p.kind, name: p.name, agent: p.agent, version: p.version })) } }) : [];
  if (rows.length !== recorded.registry.length) throw new Error(`${recorded.registry.length - rows.length} registry record(s) this run started with are gone`);
  const entries = rows.map(toRecord).sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
  return { ...recorded, entries };
}

/** The pinned evaluator's registry body, when the registry holds that exact version with the pinned digest; else null. */
export async function pinnedEvaluatorBody(db: Db, stage1: Pick<Stage1, "agent" | "evaluator">): Promise<unknown> {
  const e = stage1.evaluator;
  const row = await db.registryEntry.findFirst({ where: { kind: "evaluator", name: e.id, version: e.version, agent: { in: [stage1.agent, "*"] } }, orderBy: { agent: "desc" } });
  return row && row.digest === e.digest ? (JSON.parse(row.body) as unknown) : null;
}

async function withInForce(db: Db, f: Fixed, recorded: InForceAtStart | null): Promise<GateRunContext> {
  const { entries, parent, registry } = await entriesFor(db, f, recorded);
  const inForce = evaluatorInForce(entries);
  // No evaluator in force at all: stage 1's pin stands (unresolvable when the registry does not hold it either).
  const evaluator: EvaluatorRef = inForce ? { id: inForce.name, version: inForce.version, digest: inForce.digest } : f.stage1.evaluator;
  const evaluatorBody = inForce ? inForce.body : f.declaredBody;
  const spec = ZScoringSpec.safeParse(evaluatorBody);
  const name = `${evaluator.id}@${evaluator.version}`;
  return {
    runId: f.runId,
    candidateId: f.candidateId,
    stage1: f.stage1,
    declaredEvaluator: f.declaredEvaluator,
    heldOut: f.heldOut,
    canary: f.canary,
    excluded: f.excluded,
    evaluator,
    evaluatorName: name,
    evaluatorBody,
    scoring: spec.success
      ? { ok: true, spec: spec.data }
      : { ok: false, reason: evaluatorBody === null ? `evaluator ${name} is not in the registry with the pinned digest` : `evaluator ${name} declares no scoring the gate can read (body.scoring must be "runner_reward" or "expected_output" with output_attribute)` },
    contracts: new Map(entries.filter((r) => r.kind === "tool_contract").map((r) => [r.name, contractFacts(r.body)])),
    pricing: pricingOf(latestOf(entries, "model_server")?.body),
    retry: retryFrom(entries),
    entries,
    versions: { ...versionsFrom(entries, parent), evaluator: evaluatorKey(evaluator) },
    inForce: { registry, parent },
  };
}

/** The digest of the evaluator body the run sends to runners (`lightgate.evaluator_spec`), or null when it has none. */
export const evaluatorBodyDigest = (ctx: GateRunContext): Digest | null => (ctx.evaluatorBody === null ? null : digestOf(ctx.evaluatorBody));

async function loadFixed(database: Database, run: { id: string; candidateId: string }): Promise<Fixed> {
  const db = database.db;
  const candidate = await db.candidate.findUniqueOrThrow({ where: { id: run.candidateId } });
  const stage1 = ZStage1.parse(JSON.parse(candidate.stage1));
  const e = stage1.evaluator;
  const declaredBody = await pinnedEvaluatorBody(db, stage1);
  return {
    runId: run.id,
    candidateId: run.candidateId,
    stage1,
    parentDigest: candidate.parentDigest as Digest,
    digest: candidate.digest as Digest,
    declaredBody,
    declaredEvaluator: declaredBody !== null ? { status: "resolved", digest: e.digest } : { status: "unresolvable", reason: `evaluator ${e.id}@${e.version} is not in the registry with the pinned digest ${e.digest}` },
    heldOut: await pinnedDataset(db, stage1.data.heldOut, "held_out"),
    canary: stage1.data.canary ? await pinnedDataset(db, stage1.data.canary, "canary") : null,
    excluded: await excludedIdentities(db, candidate, stage1),
  };
}
