// Sweeps over a family's config × seeds, carried out as ordinary training runs: every config of the space
// (grid or random, sweep-space.ts) is checked by the family's schema and dry-started first, then all runs
// are recorded queued in one transaction with the sweep and its audit row — nothing half-written — and the
// trainer workers execute them like any other run. The report ranks the configs by the mean of their
// runs' final validation reward (the trainer's own split: ranking configs on the gate's exam would select
// on it) with a 95 % t interval over the seeds. Overlaying any runs is compare.ts.
import { z } from "zod";
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { canonicalJson, newId } from "@/server/digest";
import { DomainError } from "@/server/errors";
import type { LightningStore } from "@/server/store";
import { familyConfigProblems } from "@/server/trainers/families";
import { FAMILY_NAMES } from "@/server/trainers/family";
import { meanInterval } from "@/server/trainers/evaluation/intervals";
import { insertRun, prepareRun, type PreparedRun, type StartRunInput } from "./runs";
import { expandSpace, ZSweepSpace } from "./sweep-space";

/** Most runs one sweep records (configs × seeds). */
export const MAX_SWEEP_RUNS = 64;

export const ZStartSweep = z
  .object({
    name: z.string().trim().min(1, "name must not be empty").max(120, "name must be at most 120 characters").optional(),
    agent: z.string().min(1, "agent is required").max(100).default("support-desk"),
    family: z.enum(FAMILY_NAMES, { error: `family must be one of ${FAMILY_NAMES.join(", ")}` }),
    /** The config every point starts from; the space's paths are set on top of it. */
    baseConfig: z.record(z.string(), z.unknown()).default({}),
    space: ZSweepSpace,
    seedsPerConfig: z.number().int().min(1, "seedsPerConfig must be ≥ 1").max(10, "seedsPerConfig must be ≤ 10").default(3),
    seed: z.string().min(1, "seed must not be empty").max(100).refine((s) => !s.startsWith("held-out"), "seed must not start with held-out (the locked gate's namespace)").default("sweep"),
    environment: z.string().min(1).max(100).default("support-desk"),
    distribution: z.string().min(1).max(100).default("v2"),
    dataSnapshotId: z.string().min(1).max(200).nullable().optional(),
    updates: z.number().int("updates must be a whole number").min(1, "updates must be ≥ 1").max(1_000, "updates must be ≤ 1000"),
    heldOutCases: z.number().int().min(20, "heldOutCases must be ≥ 20").max(2_000, "heldOutCases must be ≤ 2000").default(100),
  })
  .strict();
export type StartSweepInput = z.output<typeof ZStartSweep>;

export async function startSweep(database: Database, store: LightningStore, input: StartSweepInput, actor: AuditActor): Promise<{ id: string; runs: number }> {
  const points = expandSpace(input.baseConfig, input.space, input.seed);
  const total = points.length * input.seedsPerConfig;
  if (total > MAX_SWEEP_RUNS) throw new DomainError("BAD_REQUEST", `space: ${points.length} configs × ${input.seedsPerConfig} seeds is ${total} runs; at most ${MAX_SWEEP_RUNS}`, "space");
  for (const [i, p] of points.entries()) {
    const problems = familyConfigProblems(input.family, p.config);
    if (problems.length) throw new DomainError("BAD_REQUEST", `space: config ${i + 1} (${p.label}): ${problems.join("; ")}`, "space");
  }
  // Every run checked and pinned before anything is written (the dry start of each config once).
  const prepared: { point: number; seed: number; run: PreparedRun }[] = [];
  for (const [i, p] of points.entries()) {
    const first = await prepareRun(database, store, runInput(input, p.config, `${input.seed}/c${i + 1}/s1`));
    for (let k = 0; k < input.seedsPerConfig; k++) prepared.push({ point: i, seed: k, run: k === 0 ? first : { ...first, input: { ...first.input, seed: `${input.seed}/c${i + 1}/s${k + 1}` } } });
  }
  const id = newId("swp");
  const name = input.name ?? `${input.family}: ${input.space.params.map((p) => p.path).join(", ")} (${input.space.mode})`;
  await database.transaction(
    async (tx) => {
      await tx.trainingSweep.create({ data: { id, name, agent: input.agent, family: input.family, mode: input.space.mode, request: canonicalJson(input), configCount: points.length, seedsPerConfig: input.seedsPerConfig, createdById: actor.id, createdBy: actor.name } });
      for (const p of prepared) {
        const run = await insertRun(tx, p.run, actor);
        const point = points[p.point]!;
        await tx.trainingSweepRun.create({ data: { sweepId: id, runId: run.id, configIndex: p.point, configLabel: point.label, config: canonicalJson(point.config), seedIndex: p.seed } });
      }
      await appendAudit(tx, { actor, action: "training.sweep.start", target: { type: "training_sweep", id }, after: { name, family: input.family, space: input.space, seedsPerConfig: input.seedsPerConfig, runs: prepared.length } });
    },
    { locks: [AUDIT_LOCK] },
  );
  return { id, runs: prepared.length };
}

function runInput(s: StartSweepInput, config: Record<string, unknown>, seed: string): StartRunInput {
  return { agent: s.agent, family: s.family, config, seed, environment: s.environment, distribution: s.distribution, dataSnapshotId: s.dataSnapshotId ?? null, parent: null, updates: s.updates, checkpointEvery: Math.max(1, Math.ceil(s.updates / 5)), continual: false, heldOutCases: s.heldOutCases, retryBudget: 100 };
}

export type SweepSummary = { id: string; name: string; family: string; mode: string; configs: number; seedsPerConfig: number; runs: number; finished: number; failed: number; createdBy: string; createdAt: Date };

export async function listSweeps(database: Database, o: { offset: number; limit: number }): Promise<{ rows: SweepSummary[]; total: number }> {
  const [rows, total] = await Promise.all([database.db.trainingSweep.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: o.offset, take: o.limit }), database.db.trainingSweep.count()]);
  const links = await database.db.trainingSweepRun.findMany({ where: { sweepId: { in: rows.map((r) => r.id) } }, select: { sweepId: true, runId: true } });
  const statuses = new Map((await database.db.trainingRun.findMany({ where: { id: { in: links.map((l) => l.runId) } }, select: { id: true, status: true } })).map((r) => [r.id, r.status]));
  return {
    total,
    rows: rows.map((r) => {
      const mine = links.filter((l) => l.sweepId === r.id).map((l) => statuses.get(l.runId));
      return { id: r.id, name: r.name, family: r.family, mode: r.mode, configs: r.configCount, seedsPerConfig: r.seedsPerConfig, runs: mine.length, finished: mine.filter((s) => s === "finished").length, failed: mine.filter((s) => s === "failed").length, createdBy: r.createdBy, createdAt: r.createdAt };
    }),
  };
}

export type SweepRunRow = { runId: string; seedIndex: number; status: string; updatesDone: number; updatesTotal: number; final: number | null };
type Json = Record<string, unknown>;
export type SweepConfigRow = { index: number; label: string; config: Json; rank: number | null; runs: SweepRunRow[]; mean: number | null; ci: [number, number] | null; n: number };
export type SweepReport = { id: string; name: string; family: string; mode: string; request: Json; createdBy: string; createdAt: Date; parentValidation: number | null; configs: SweepConfigRow[] };

/** The sweep with each config's runs, the final validation reward of each finished run, and the ranking. */
export async function getSweep(database: Database, id: string): Promise<SweepReport> {
  const sweep = await database.db.trainingSweep.findUnique({ where: { id } });
  if (!sweep) throw new DomainError("NOT_FOUND", `id: no sweep ${id.slice(0, 200)}`, "id");
  const links = await database.db.trainingSweepRun.findMany({ where: { sweepId: id }, orderBy: [{ configIndex: "asc" }, { seedIndex: "asc" }] });
  const runIds = links.map((l) => l.runId);
  const runs = new Map((await database.db.trainingRun.findMany({ where: { id: { in: runIds } }, select: { id: true, status: true, updatesDone: true, updatesTotal: true, parentHeldOutReward: true } })).map((r) => [r.id, r]));
  // The final update's validation reward of each run (a run's last metric row is its last update).
  const finals = new Map<string, number | null>();
  for (const r of runs.values()) {
    if (r.status !== "finished" || r.updatesDone === 0) continue;
    const m = await database.db.trainingMetric.findUnique({ where: { runId_update: { runId: r.id, update: r.updatesDone } }, select: { heldOutReward: true } });
    finals.set(r.id, m?.heldOutReward ?? null);
  }
  const byConfig = new Map<number, SweepConfigRow>();
  for (const l of links) {
    const r = runs.get(l.runId)!;
    const row = byConfig.get(l.configIndex) ?? { index: l.configIndex, label: l.configLabel, config: JSON.parse(l.config) as Json, rank: null, runs: [], mean: null, ci: null, n: 0 };
    row.runs.push({ runId: l.runId, seedIndex: l.seedIndex, status: r.status, updatesDone: r.updatesDone, updatesTotal: r.updatesTotal, final: finals.get(l.runId) ?? null });
    byConfig.set(l.configIndex, row);
  }
  const configs = [...byConfig.values()];
  for (const c of configs) {
    const values = c.runs.flatMap((r) => (r.final === null ? [] : [r.final]));
    c.n = values.length;
    if (values.length === 0) continue;
    const i = meanInterval(values);
    c.mean = i.estimate;
    c.ci = i.method === "t" ? i.ci : null;
  }
  configs
    .filter((c) => c.mean !== null)
    .sort((a, b) => b.mean! - a.mean! || a.index - b.index)
    .forEach((c, k) => (c.rank = k + 1));
  const parent = [...runs.values()].find((r) => r.parentHeldOutReward !== null)?.parentHeldOutReward ?? null;
  return { id, name: sweep.name, family: sweep.family, mode: sweep.mode, request: JSON.parse(sweep.request) as Json, createdBy: sweep.createdBy, createdAt: sweep.createdAt, parentValidation: parent, configs };
}
