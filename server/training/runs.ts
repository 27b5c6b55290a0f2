// Training runs as records: start (validate everything a worker will need, pin the exact parent, record the
// run as queued), pause, resume and stop. Workers (worker.ts) do the work; these ask the run lifecycle
// (lifecycle.ts) to move the status, in a transaction with its event and audit row. A worker holding the run
// sees the change at its next control check.
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import type { Database, Tx } from "@/server/db/client";
import { canonicalJson, newId } from "@/server/digest";
import { DomainError } from "@/server/errors";
import type { LightningStore } from "@/server/store";
import { familyConfigProblems, familyOf, parseFamilyConfig, startFamily } from "@/server/trainers/families";
import type { FamilyName } from "@/server/trainers/family";
import { codeRevision } from "./code-revision";
import { createQueuedRun, moveRun, RUN_RULES } from "./lifecycle";
import { refreshRunSummary } from "./summary";
import { ensureInitialParent, environmentOf, loadParent, resolveRunContext, type ParentRef, type RunPins } from "./context";

export type StartRunInput = {
  agent: string;
  family: FamilyName;
  config: unknown;
  seed: string;
  environment: string;
  distribution: string;
  /** The exact parent; omitted → the environment's untrained policy for the family (policy families). */
  parent?: { resourcesId: string; version: number } | null;
  dataSnapshotId?: string | null;
  updates: number;
  checkpointEvery: number;
  continual: boolean;
  /** Continual runs publish a candidate every this many updates (default: only at the end). */
  candidateEvery?: number | null;
  heldOutCases: number;
  retryBudget: number;
  name?: string | null;
  tags?: readonly string[];
  /** Minimum seconds between updates (default 0). */
  paceSeconds?: number;
};

export const runLock = (id: string) => `training-run:${id}`;

/** A run checked and pinned, ready to be recorded (inside the caller's transaction, with others if need be). */
export type PreparedRun = { input: StartRunInput; config: unknown; pins: RunPins; snapshotId: string | null; revision: string; parentRef: ParentRef };

/**
 * Checks everything a worker will need — the family's config, the data it reads, the exact parent, a dry
 * start of the family — and pins it; nothing is written but the environment's initial parent, once.
 */
export async function prepareRun(database: Database, store: LightningStore, input: StartRunInput): Promise<PreparedRun> {
  const problems = familyConfigProblems(input.family, input.config);
  if (problems.length) {
    const field = `config.${problems[0]!.split(":")[0]}`;
    throw new DomainError("BAD_REQUEST", `invalid ${input.family} config: ${problems.join("; ")}`, field);
  }
  const config = parseFamilyConfig(input.family, input.config);
  const def = familyOf(input.family);
  let snapshot: { id: string; digest: string } | null = null;
  if (input.dataSnapshotId) {
    snapshot = await database.db.datasetSnapshot.findUnique({ where: { id: input.dataSnapshotId }, select: { id: true, digest: true } });
    if (!snapshot) throw new DomainError("BAD_REQUEST", `dataSnapshotId: no dataset snapshot ${input.dataSnapshotId}`, "dataSnapshotId");
  } else if (def.reads.length) {
    throw new DomainError("BAD_REQUEST", `dataSnapshotId: ${input.family} reads ${def.reads.join(", ")} records; choose a training snapshot`, "dataSnapshotId");
  }
  const env = environmentOf(input.environment);
  const parentRef = input.parent ? (await loadParent(store, input.parent)).parentRef : await ensureInitialParent(store, env, input.family);
  const pins: RunPins = {
    environment: input.environment,
    distribution: input.distribution,
    heldOutCases: input.heldOutCases,
    dataSnapshotDigest: snapshot?.digest ?? null,
    parentResourcesId: parentRef.resourcesId,
    parentVersion: parentRef.version,
    parentDigest: parentRef.digest,
  };
  // Dry start: the family itself checks the parent's kind and fit, the data it reads and the revision.
  const ctx = await resolveRunContext(database, store, pins);
  const revision = codeRevision();
  try {
    startFamily({ ...ctx, seed: input.seed, family: input.family, config, codeRevision: revision, retryBudget: input.retryBudget });
  } catch (e) {
    const message = (e as Error).message;
    const field = /parent/i.test(message) ? "parent" : /snapshot|records/i.test(message) ? "dataSnapshotId" : "config";
    throw new DomainError("BAD_REQUEST", `${field}: ${message}`, field);
  }
  return { input, config, pins, snapshotId: snapshot?.id ?? null, revision, parentRef };
}

/** Records a prepared run as queued, with its first event and audit row, in the caller's transaction (holding AUDIT_LOCK). */
export async function insertRun(tx: Tx, p: PreparedRun, actor: AuditActor) {
  const { input, config, pins, parentRef } = p;
  const run = await createQueuedRun(tx, {
    id: newId("run"),
    agent: input.agent,
    name: input.name?.trim() || null,
    tags: joinTags(input.tags ?? []),
    paceSeconds: input.paceSeconds ?? 0,
    family: input.family,
    config: canonicalJson(config),
    seed: input.seed,
    ...pins,
    dataSnapshotId: p.snapshotId,
    codeRevision: p.revision,
    continual: input.continual,
    candidateEvery: input.candidateEvery ?? input.updates,
    checkpointEvery: input.checkpointEvery,
    retryBudget: input.retryBudget,
    updatesTotal: input.updates,
    startedById: actor.id,
  });
  await tx.trainingEvent.create({ data: { id: newId("tev"), runId: run.id, kind: "queued", message: `${actor.name} started ${input.family} on ${input.environment}/${input.distribution} from ${parentRef.resourcesId} v${parentRef.version}` } });
  await appendAudit(tx, { actor, action: "training.start", target: { type: "training_run", id: run.id }, after: { family: run.family, config, parent: parentRef, seed: run.seed, updates: run.updatesTotal } });
  return run;
}

export async function startRun(database: Database, store: LightningStore, input: StartRunInput, actor: AuditActor) {
  const prepared = await prepareRun(database, store, input);
  return database.transaction((tx) => insertRun(tx, prepared, actor), { locks: [AUDIT_LOCK] });
}

const ACTIONS = { pause: "training.pause", resume: "training.resume", stop: "training.stop" } as const;

/** A person's pause, resume or stop; refused (CONFLICT, naming the status) when the run lifecycle does not allow it. */
export async function changeRunStatus(database: Database, runId: string, change: keyof typeof ACTIONS, actor: AuditActor) {
  return database.transaction(
    async (tx) => {
      const move = await moveRun(tx, runId, { kind: change, by: actor.name });
      await tx.trainingEvent.create({ data: { id: newId("tev"), runId, kind: change, message: `${RUN_RULES[change].verb} by ${actor.name}` } });
      if (change === "stop") await refreshRunSummary(tx, runId); // its runtime ends here
      await appendAudit(tx, { actor, action: ACTIONS[change], target: { type: "training_run", id: runId }, before: { status: move.from }, after: { status: move.to } });
      return tx.trainingRun.findUniqueOrThrow({ where: { id: runId } });
    },
    { locks: [AUDIT_LOCK, runLock(runId)] },
  );
}

/** Stored ",a,b," → ["a", "b"]. */
export const splitTags = (stored: string): string[] => stored.split(",").filter(Boolean);
/** Lower-cased, trimmed, de-duplicated and sorted, stored as ",a,b," (the shape listRuns filters with `contains`). */
export const joinTags = (tags: readonly string[]): string => {
  const clean = [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))].sort();
  return clean.length ? `,${clean.join(",")},` : "";
};

/** Renames and re-tags a run (W&B's editable run name and tags), with its audit row. */
export async function labelRun(database: Database, runId: string, label: { name: string | null; tags: readonly string[] }, actor: AuditActor) {
  return database.transaction(
    async (tx) => {
      const run = await tx.trainingRun.findUnique({ where: { id: runId } });
      if (!run) throw new DomainError("NOT_FOUND", `runId: no training run ${runId}`, "runId");
      const name = label.name?.trim() || null;
      const tags = joinTags(label.tags);
      const updated = await tx.trainingRun.update({ where: { id: runId }, data: { name, tags } });
      await appendAudit(tx, { actor, action: "training.label", target: { type: "training_run", id: runId }, before: { name: run.name, tags: splitTags(run.tags) }, after: { name, tags: splitTags(tags) } });
      return updated;
    },
    { locks: [AUDIT_LOCK, runLock(runId)] },
  );
}
