// What the training pages read: runs with progress, ETA and the two separate signals — "active" (updates are
// arriving) and "making useful progress" (the policy beats its exact parent on the validation split and
// is not falling) — and one run in full: curves, evidence so far, events, candidates.
import type { Database, Prisma } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { ETA_WINDOW, estimateEta, type Eta } from "./eta";
import { diagnosticsSeries, stopConditions, type JudgedWindow } from "./monitor";
import type { RunStatus } from "./lifecycle";
import { splitTags } from "./runs";
import { DEFAULT_RUN_SORT, type RunSort, type SortDirection } from "@/lib/training/run-sorts";

/** A running run with no update for this long is shown as not active (stuck runners, a dead worker). */
const ACTIVE_WINDOW_MS = 60_000;
const RECENT = 5;
/** Updates the ETA reads (its window of spans needs one more). */
const TIMING = ETA_WINDOW + 1;

type MetricRow = { update: number; episodes: number; meanReward: number | null; heldOutReward: number | null; coverage: number | null; retries: number; failed: number; at: Date; figures: string };
type RunRow = Awaited<ReturnType<Database["db"]["trainingRun"]["findFirstOrThrow"]>>;

export type RunHealth = { active: boolean; usefulProgress: boolean | null; progressNote: string; eta: Omit<Eta, "secondsPerUpdate"> | null; secondsPerUpdate: number | null };
/** Statuses in which a run no longer makes progress, whatever its last figures said. */
const HALTED = new Set(["paused", "stopped", "failed"]);

/** Health from the latest metrics (oldest first; up to TIMING for the rate), the run's status and the parent's held-out level. */
export function runHealth(run: Pick<RunRow, "status" | "updatesDone" | "updatesTotal" | "parentHeldOutReward"> & { paceSeconds?: number }, metrics: readonly Pick<MetricRow, "heldOutReward" | "at">[], now = Date.now()): RunHealth {
  const recent = metrics.slice(-RECENT);
  const last = recent.at(-1);
  const active = run.status === "running" && !!last && now - last.at.getTime() < ACTIVE_WINDOW_MS;
  const estimate = estimateEta(metrics.map((m) => m.at), run.updatesTotal - run.updatesDone, now, run.paceSeconds ?? 0);
  const secondsPerUpdate = estimate?.secondsPerUpdate ?? null;
  const eta = run.status === "running" && estimate ? { seconds: estimate.seconds, low: estimate.low, high: estimate.high } : null;
  const held = recent.flatMap((m) => (m.heldOutReward === null ? [] : [m.heldOutReward]));
  if (held.length < 2 || run.parentHeldOutReward === null) return { active, usefulProgress: null, progressNote: "not enough validation evaluations yet", eta, secondsPerUpdate };
  const latest = held.at(-1)!;
  const beatsParent = latest > run.parentHeldOutReward;
  const falling = latest < Math.max(...held) - 0.05;
  const usefulProgress = beatsParent && !falling && !HALTED.has(run.status);
  const vs = `${latest.toFixed(3)} on the validation split vs the parent's ${run.parentHeldOutReward.toFixed(3)}`;
  return { active, usefulProgress, progressNote: falling ? `falling: ${vs}` : vs, eta, secondsPerUpdate };
}

export type ListRunsInput = { status?: RunStatus[]; tag?: string; search?: string; sort?: RunSort; dir?: SortDirection; limit: number; offset: number };

type Order = "asc" | "desc";
/** Each sort key's column; nullable columns put their nulls last whichever the direction. */
const ORDER_BY: Record<RunSort, (dir: Order) => Prisma.TrainingRunOrderByWithRelationInput> = {
  created: (dir) => ({ createdAt: dir }),
  name: (dir) => ({ name: { sort: dir, nulls: "last" } }),
  updates: (dir) => ({ updatesDone: dir }),
  latest_reward: (dir) => ({ latestValidation: { sort: dir, nulls: "last" } }),
  best_reward: (dir) => ({ bestValidation: { sort: dir, nulls: "last" } }),
  retry_debt: (dir) => ({ retryDebt: dir }),
  duration: (dir) => ({ runtimeSeconds: { sort: dir, nulls: "last" } }),
};

export async function listRuns(database: Database, q: ListRunsInput) {
  const where = {
    ...(q.status?.length ? { status: { in: q.status } } : {}),
    ...(q.tag ? { tags: { contains: `,${q.tag.toLowerCase()},` } } : {}),
    ...(q.search ? { OR: [{ name: { contains: q.search } }, { id: { contains: q.search } }] } : {}),
  };
  const sort = q.sort ?? DEFAULT_RUN_SORT.sort;
  const dir = q.dir ?? DEFAULT_RUN_SORT.dir;
  // Ties (and runs with no value) keep the newest first, and the id makes the order total, so pages never overlap.
  const orderBy = [ORDER_BY[sort](dir), { createdAt: "desc" as const }, { id: "desc" as const }];
  const [rows, total] = await Promise.all([database.db.trainingRun.findMany({ where, orderBy, take: q.limit, skip: q.offset }), database.db.trainingRun.count({ where })]);
  const items = await Promise.all(
    rows.map(async (run) => {
      const recent = (await database.db.trainingMetric.findMany({ where: { runId: run.id }, orderBy: { update: "desc" }, take: TIMING, select: { heldOutReward: true, at: true } })).reverse();
      const candidates = await database.db.candidate.count({ where: { trainingRunId: run.id } });
      return { ...summary(run), candidates, health: runHealth(run, recent) };
    }),
  );
  return { items, total };
}

function summary(run: RunRow) {
  return {
    id: run.id,
    name: run.name,
    tags: splitTags(run.tags),
    agent: run.agent,
    family: run.family,
    environment: run.environment,
    distribution: run.distribution,
    continual: run.continual,
    status: run.status as RunStatus,
    statusReason: run.statusReason,
    updatesDone: run.updatesDone,
    updatesTotal: run.updatesTotal,
    episodesDone: run.episodesDone,
    startedById: run.startedById,
    createdAt: run.createdAt,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    latestValidation: run.latestValidation,
    bestValidation: run.bestValidation,
    parentValidation: run.parentHeldOutReward,
    retryDebt: run.retryDebt,
    retryBudget: run.retryBudget,
    runtimeSeconds: run.runtimeSeconds,
  };
}

export async function getRun(database: Database, runId: string) {
  const run = await database.db.trainingRun.findUnique({ where: { id: runId } });
  if (!run) throw new DomainError("NOT_FOUND", `runId: no training run ${runId}`, "runId");
  const [metrics, events, candidates, checkpoints, starter, judgedEvent] = await Promise.all([
    database.db.trainingMetric.findMany({ where: { runId }, orderBy: { update: "asc" } }),
    database.db.trainingEvent.findMany({ where: { runId }, orderBy: { at: "desc" }, take: 50 }),
    database.db.candidate.findMany({ where: { trainingRunId: runId }, orderBy: { createdAt: "asc" }, select: { id: true, resourcesId: true, version: true, digest: true, createdAt: true } }),
    database.db.trainingCheckpoint.findMany({ where: { runId }, orderBy: { update: "desc" }, take: 50, select: { update: true, digest: true, createdAt: true } }),
    database.db.user.findUnique({ where: { id: run.startedById }, select: { name: true } }),
    // The newest window the gate's stop conditions judged (a continual run's "evidence" or "paused" event).
    database.db.trainingEvent.findFirst({ where: { runId, kind: { in: ["evidence", "paused"] }, data: { not: null } }, orderBy: { at: "desc" }, select: { data: true } }),
  ]);
  const figures = metrics.map((m) => ({ update: m.update, figures: JSON.parse(m.figures) as Record<string, number> }));
  const config = JSON.parse(run.config) as Record<string, unknown>;
  const judged = judgedEvent?.data ? (JSON.parse(judgedEvent.data) as JudgedWindow) : null;
  const succeededShare = metrics.flatMap((m) => (m.coverage === null ? [] : [{ c: m.coverage, n: m.episodes - m.failed }]));
  const considered = succeededShare.reduce((a, b) => a + b.n, 0);
  const retries = metrics.reduce((a, m) => a + m.retries, 0);
  return {
    ...summary(run),
    startedByName: starter?.name ?? (run.startedById === "demo" ? "Demo (npm start)" : run.startedById),
    config,
    paceSeconds: run.paceSeconds,
    restoredFrom: run.restoredFromRunId === null ? null : { runId: run.restoredFromRunId, update: run.restoredFromUpdate ?? 0 },
    seed: run.seed,
    parent: { resourcesId: run.parentResourcesId, version: run.parentVersion, digest: run.parentDigest },
    dataSnapshotId: run.dataSnapshotId,
    codeRevision: run.codeRevision,
    heldOutCases: run.heldOutCases,
    parentHeldOutReward: run.parentHeldOutReward,
    checkpointEvery: run.checkpointEvery,
    candidateEvery: run.candidateEvery,
    lastCheckpoint: checkpoints[0] ?? null,
    checkpoints,
    health: runHealth(run, metrics.slice(-TIMING)),
    pausedAt: run.status === "paused" ? (events.find((e) => e.kind === "pause" || e.kind === "paused")?.at ?? null) : null,
    stopConditions: stopConditions(run, config, figures.map((f) => f.figures), judged && Array.isArray(judged.reasons) ? judged : null),
    diagnostics: diagnosticsSeries(figures),
    curve: metrics.map((m) => ({ update: m.update, meanReward: m.meanReward, heldOutReward: m.heldOutReward })),
    evidence: {
      /** Share of succeeded rollouts whose latest attempt carried every expected span (null: none judged). */
      coverage: considered ? succeededShare.reduce((a, b) => a + b.c * b.n, 0) / considered : null,
      retries,
      retryBudget: run.retryBudget,
      failedRollouts: metrics.reduce((a, m) => a + m.failed, 0),
      episodes: run.episodesDone,
    },
    events: events.map((e) => ({ id: e.id, kind: e.kind, message: e.message, at: e.at })),
    candidates,
  };
}
