// What the training pages read: runs with progress, ETA and the two separate signals — "active" (updates are
// arriving) and "making useful progress" (the policy beats its exact parent on the validation split and
// is not falling) — and one run in full: curves, evidence so far, events, candidates.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { RunStatus } from "./runs";

/** A running run with no update for this long is shown as not active (stuck runners, a dead worker). */
const ACTIVE_WINDOW_MS = 60_000;
const RECENT = 5;

type MetricRow = { update: number; episodes: number; meanReward: number | null; heldOutReward: number | null; coverage: number | null; retries: number; failed: number; at: Date; figures: string };
type RunRow = Awaited<ReturnType<Database["db"]["trainingRun"]["findFirstOrThrow"]>>;

export type RunHealth = { active: boolean; usefulProgress: boolean | null; progressNote: string; etaSeconds: number | null; secondsPerUpdate: number | null };

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** Health from the latest metrics (oldest first), the run's status and the parent's held-out level. */
export function runHealth(run: Pick<RunRow, "status" | "updatesDone" | "updatesTotal" | "parentHeldOutReward">, recent: readonly Pick<MetricRow, "heldOutReward" | "at">[], now = Date.now()): RunHealth {
  const last = recent.at(-1);
  const active = run.status === "running" && !!last && now - last.at.getTime() < ACTIVE_WINDOW_MS;
  const spans = recent.slice(1).map((m, i) => (m.at.getTime() - recent[i]!.at.getTime()) / 1000);
  const secondsPerUpdate = mean(spans.filter((s) => s >= 0));
  const remaining = run.updatesTotal - run.updatesDone;
  const etaSeconds = run.status === "running" && secondsPerUpdate !== null ? Math.round(remaining * secondsPerUpdate) : null;
  const held = recent.flatMap((m) => (m.heldOutReward === null ? [] : [m.heldOutReward]));
  if (held.length < 2 || run.parentHeldOutReward === null) return { active, usefulProgress: null, progressNote: "not enough validation evaluations yet", etaSeconds, secondsPerUpdate };
  const latest = held.at(-1)!;
  const beatsParent = latest > run.parentHeldOutReward;
  const falling = latest < Math.max(...held) - 0.05;
  const usefulProgress = beatsParent && !falling && run.status !== "paused" && run.status !== "failed";
  const vs = `${latest.toFixed(3)} on the validation split vs the parent's ${run.parentHeldOutReward.toFixed(3)}`;
  return { active, usefulProgress, progressNote: falling ? `falling: ${vs}` : vs, etaSeconds, secondsPerUpdate };
}

export type ListRunsInput = { status?: RunStatus[]; limit: number; offset: number };

export async function listRuns(database: Database, q: ListRunsInput) {
  const where = q.status?.length ? { status: { in: q.status } } : {};
  const [rows, total] = await Promise.all([database.db.trainingRun.findMany({ where, orderBy: { createdAt: "desc" }, take: q.limit, skip: q.offset }), database.db.trainingRun.count({ where })]);
  const items = await Promise.all(
    rows.map(async (run) => {
      const recent = (await database.db.trainingMetric.findMany({ where: { runId: run.id }, orderBy: { update: "desc" }, take: RECENT, select: { heldOutReward: true, at: true } })).reverse();
      const candidates = await database.db.candidate.count({ where: { trainingRunId: run.id } });
      return { ...summary(run), candidates, health: runHealth(run, recent) };
    }),
  );
  return { items, total };
}

function summary(run: RunRow) {
  return {
    id: run.id,
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
  const [metrics, events, candidates, checkpoints, starter] = await Promise.all([
    database.db.trainingMetric.findMany({ where: { runId }, orderBy: { update: "asc" } }),
    database.db.trainingEvent.findMany({ where: { runId }, orderBy: { at: "desc" }, take: 50 }),
    database.db.candidate.findMany({ where: { trainingRunId: runId }, orderBy: { createdAt: "asc" }, select: { id: true, resourcesId: true, version: true, digest: true, createdAt: true } }),
    database.db.trainingCheckpoint.findMany({ where: { runId }, orderBy: { update: "desc" }, take: 1, select: { update: true, digest: true, createdAt: true } }),
    database.db.user.findUnique({ where: { id: run.startedById }, select: { name: true } }),
  ]);
  const succeededShare = metrics.flatMap((m) => (m.coverage === null ? [] : [{ c: m.coverage, n: m.episodes - m.failed }]));
  const considered = succeededShare.reduce((a, b) => a + b.n, 0);
  const retries = metrics.reduce((a, m) => a + m.retries, 0);
  return {
    ...summary(run),
    startedByName: starter?.name ?? (run.startedById === "demo" ? "Demo (npm start)" : run.startedById),
    config: JSON.parse(run.config) as Record<string, unknown>,
    seed: run.seed,
    parent: { resourcesId: run.parentResourcesId, version: run.parentVersion, digest: run.parentDigest },
    dataSnapshotId: run.dataSnapshotId,
    codeRevision: run.codeRevision,
    heldOutCases: run.heldOutCases,
    parentHeldOutReward: run.parentHeldOutReward,
    checkpointEvery: run.checkpointEvery,
    candidateEvery: run.candidateEvery,
    lastCheckpoint: checkpoints[0] ?? null,
    health: runHealth(run, metrics.slice(-RECENT)),
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
