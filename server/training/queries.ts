// What the training pages read: runs with progress, ETA and the two separate signals — "active" (updates are
// arriving) and "making useful progress" (the policy beats its exact parent on the validation split and
// is not falling) — and one run in full: curves, evidence so far, events, candidates.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { diagnosticsSeries, steadyEta, steadyRate, stopConditions, type JudgedWindow } from "./monitor";
import { splitTags, type RunStatus } from "./runs";

/** A running run with no update for this long is shown as not active (stuck runners, a dead worker). */
const ACTIVE_WINDOW_MS = 60_000;
const RECENT = 5;
/** Updates the steady ETA is smoothed over. */
const TIMING = 60;

type MetricRow = { update: number; episodes: number; meanReward: number | null; heldOutReward: number | null; coverage: number | null; retries: number; failed: number; at: Date; figures: string };
type RunRow = Awaited<ReturnType<Database["db"]["trainingRun"]["findFirstOrThrow"]>>;

export type RunHealth = { active: boolean; usefulProgress: boolean | null; progressNote: string; etaSeconds: number | null; secondsPerUpdate: number | null };

/** Health from the latest metrics (oldest first; up to TIMING for the rate), the run's status and the parent's held-out level. */
export function runHealth(run: Pick<RunRow, "status" | "updatesDone" | "updatesTotal" | "parentHeldOutReward"> & { paceSeconds?: number }, metrics: readonly Pick<MetricRow, "heldOutReward" | "at">[], now = Date.now()): RunHealth {
  const recent = metrics.slice(-RECENT);
  const last = recent.at(-1);
  const active = run.status === "running" && !!last && now - last.at.getTime() < ACTIVE_WINDOW_MS;
  const secondsPerUpdate = steadyRate(metrics.map((m) => m.at), run.paceSeconds ?? 0);
  const remaining = run.updatesTotal - run.updatesDone;
  const etaSeconds = run.status === "running" ? steadyEta(secondsPerUpdate, remaining, last?.at ?? null, now) : null;
  const held = recent.flatMap((m) => (m.heldOutReward === null ? [] : [m.heldOutReward]));
  if (held.length < 2 || run.parentHeldOutReward === null) return { active, usefulProgress: null, progressNote: "not enough validation evaluations yet", etaSeconds, secondsPerUpdate };
  const latest = held.at(-1)!;
  const beatsParent = latest > run.parentHeldOutReward;
  const falling = latest < Math.max(...held) - 0.05;
  const usefulProgress = beatsParent && !falling && run.status !== "paused" && run.status !== "failed";
  const vs = `${latest.toFixed(3)} on the validation split vs the parent's ${run.parentHeldOutReward.toFixed(3)}`;
  return { active, usefulProgress, progressNote: falling ? `falling: ${vs}` : vs, etaSeconds, secondsPerUpdate };
}

export type ListRunsInput = { status?: RunStatus[]; tag?: string; search?: string; limit: number; offset: number };

export async function listRuns(database: Database, q: ListRunsInput) {
  const where = {
    ...(q.status?.length ? { status: { in: q.status } } : {}),
    ...(q.tag ? { tags: { contains: `,${q.tag.toLowerCase()},` } } : {}),
    ...(q.search ? { OR: [{ name: { contains: q.search } }, { id: { contains: q.search } }] } : {}),
  };
  const [rows, total] = await Promise.all([database.db.trainingRun.findMany({ where, orderBy: { createdAt: "desc" }, take: q.limit, skip: q.offset }), database.db.trainingRun.count({ where })]);
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
