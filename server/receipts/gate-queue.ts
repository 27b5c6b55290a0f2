// Gate runs as a queue: `requestGateRun` records a queued run (who asked, when, how long each phase may wait
// for runners); `runPendingGates` — the orchestrator loop's call, in the server process and in workers with
// --gates — steps every open run whose lease it can take (gate-run/step.ts). A receipt whose held-out set is
// not a published gate dataset (evidence imported from elsewhere) is refused up front: the gate could only
// ask runners for cases it holds.
import { waitOrWake } from "@/lib/async/wait-or-wake";
import type { Database } from "@/server/db/client";
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import { newId } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { onRolloutEnded } from "@/server/store/ended";
import { abortLateBreaches } from "./gate-run/late-breach";
import { announceGateRun, onGateRunQueued } from "./gate-run/news";
import { stepGateRun, type StepResult } from "./gate-run/step";

export { recordCheckResults } from "./check-results";

/** How long each phase waits for runners (and the verifying phase for verifiers) unless the request says. */
export const DEFAULT_DEADLINE_SECONDS = Number(process.env.LIGHTGATE_GATE_DEADLINE_SECONDS ?? 600);
export const MIN_DEADLINE_SECONDS = 1;
export const MAX_DEADLINE_SECONDS = 86_400;

export type GateRunRequest = { candidateId: string; actor: AuditActor; deadlineSeconds?: number };

export async function requestGateRun(database: Database, input: GateRunRequest) {
  const deadline = input.deadlineSeconds ?? DEFAULT_DEADLINE_SECONDS;
  if (!Number.isFinite(deadline) || deadline < MIN_DEADLINE_SECONDS || deadline > MAX_DEADLINE_SECONDS) {
    throw new DomainError("BAD_REQUEST", `deadline_seconds: must be between ${MIN_DEADLINE_SECONDS} and ${MAX_DEADLINE_SECONDS}`, "deadline_seconds");
  }
  return database.transaction(
    async (tx) => {
      const candidate = await tx.candidate.findUnique({ where: { id: input.candidateId }, select: { id: true, agent: true, stage1: true } });
      if (!candidate) throw new DomainError("NOT_FOUND", `no candidate ${input.candidateId}`, "candidateId");
      const heldOut = (JSON.parse(candidate.stage1) as { data?: { heldOut?: { id?: string } } }).data?.heldOut?.id ?? "";
      if (!(await tx.gateDataset.findUnique({ where: { id: heldOut }, select: { id: true } }))) {
        throw new DomainError(
          "PRECONDITION_FAILED",
          `${candidate.id}: its held-out set ${heldOut.slice(0, 100) || "(none)"} is not a published gate dataset — the receipt's evidence was imported, so the gate cannot ask runners for its cases; its sealed verdict stands as recorded`,
          "candidateId",
        );
      }
      const open = await tx.gateRun.findFirst({ where: { candidateId: candidate.id, status: { in: ["queued", "running"] } } });
      if (open) return open;
      const run = await tx.gateRun.create({
        data: { id: newId("gr"), candidateId: candidate.id, kind: "admission", status: "queued", phase: "queued", requestedById: input.actor.id, requestedAt: new Date(), deadlineSeconds: Math.round(deadline) },
      });
      await appendAudit(tx, { actor: input.actor, action: "gate.run.request", target: { type: "candidate", id: candidate.id }, after: { run: run.id, deadlineSeconds: run.deadlineSeconds } });
      await announceGateRun(tx, run.id);
      return run;
    },
    { locks: [AUDIT_LOCK, `gate-run:${input.candidateId}`] },
  );
}

export type RunOutcome = { id: string; candidateId: string; status: "done" | "failed"; detail: string };

/**
 * Steps every open run once (oldest first) whose lease `owner` can take, then aborts sealed canary stages a late
 * out-of-boundary span breached (late-breach.ts); returns the runs that finished in this pass. Each step is short: it enqueues, reads what came back, and moves on — the waiting is the runners'.
 */
export async function runPendingGates(database: Database, opts: { owner?: string; limit?: number; onStep?: (step: StepResult | null) => void } = {}): Promise<RunOutcome[]> {
  const owner = opts.owner ?? `gates-${process.pid}`;
  const open = await database.db.gateRun.findMany({ where: { status: { in: ["queued", "running"] } }, orderBy: [{ requestedAt: "asc" }, { id: "asc" }], take: opts.limit ?? 50, select: { id: true, deadlineSeconds: true } });
  const finished: RunOutcome[] = [];
  for (const run of open) {
    const step: StepResult | null = await stepGateRun(database, run.id, owner, run.deadlineSeconds);
    opts.onStep?.(step);
    if (step && (step.status === "done" || step.status === "failed")) {
      const row = await database.db.gateRun.findUniqueOrThrow({ where: { id: run.id }, select: { linkDigest: true } });
      finished.push({ id: step.runId, candidateId: step.candidateId, status: step.status, detail: step.error ?? row.linkDigest ?? "" });
    }
  }
  // A sealed canary stage is still watched while the canary pointer names its candidate: a late breach aborts it.
  await abortLateBreaches(database);
  return finished;
}

/** How many polls' time the loop sleeps when every run waits for all its rollouts or its deadline. */
const SPARSE_POLLS = 4;

/**
 * The orchestrator loop: steps open gate runs until the signal aborts — every `intervalMs`, and sooner when a
 * step said what it waits for (NextStep) and this process's store saw it end (or the step changed phase), or when
 * any process queued a run (on PostgreSQL, gate-run/news.ts). A
 * pass for nothing is not free (it reads the run, its tasks and their rollouts), so the poll is the fallback:
 * it serves deadlines, runs no step asked to wake for (a lease held elsewhere, the verifying phase) and
 * rollouts ended through another process — and only the progress counts while every run waits for its whole
 * locked gate, so then it is sparser, up to the earliest deadline.
 */
export async function orchestrateGates(database: Database, signal: AbortSignal, opts: { intervalMs?: number; owner?: string; log?: (line: string) => void } = {}) {
  const waits = new Map<string, { rollouts: Set<string>; all: boolean }>();
  let wake: (() => void) | null = null;
  let due = false;
  // When every run waits only for all of its rollouts or its deadline (the locked gate), the poll is sparser.
  let sparseUntil: number | null = null;
  const ended = new Set<string>();
  const hear = (rolloutId: string) => {
    ended.add(rolloutId);
    for (const w of waits.values()) {
      if (!w.rollouts.delete(rolloutId)) continue;
      if (!w.all || w.rollouts.size === 0) {
        due = true;
        wake?.();
      }
    }
  };
  const unsubscribe = onRolloutEnded(database, hear);
  // A run queued by any process (PostgreSQL): step it now, not at the next poll.
  const unsubscribeQueued = onGateRunQueued(database, () => {
    due = true;
    wake?.();
  });
  try {
    while (!signal.aborted) {
      waits.clear();
      ended.clear();
      due = false;
      sparseUntil = Number.POSITIVE_INFINITY;
      try {
        const outcomes = await runPendingGates(database, {
          owner: opts.owner,
          onStep: (step) => {
            const next = step?.next;
            sparseUntil = next && next !== "now" && next.all && next.until && sparseUntil !== null ? Math.min(sparseUntil, next.until.getTime()) : null;
            if (!step) return;
            if (step.next === "now") due = true;
            else if (step.next && step.status === "running") {
              // What ended while the pass ran, after this step read its rollouts, counts as heard.
              const left = step.next.rollouts.filter((id) => !ended.has(id));
              if (left.length < step.next.rollouts.length && (!step.next.all || left.length === 0)) due = true;
              else waits.set(step.runId, { rollouts: new Set(left), all: step.next.all });
            }
          },
        });
        for (const r of outcomes) opts.log?.(`${r.candidateId}: gate run ${r.id} ${r.status} ${r.detail.slice(0, 200)}`);
      } catch (e) {
        opts.log?.(`gate orchestrator: ${(e as Error).message}`);
      }
      if (due) continue;
      const interval = opts.intervalMs ?? 500;
      const sparse = sparseUntil !== null && Number.isFinite(sparseUntil) ? Math.max(interval, Math.min(interval * SPARSE_POLLS, sparseUntil - Date.now() + 10)) : interval;
      await waitOrWake(sparse, signal, (w) => (wake = w));
    }
  } finally {
    unsubscribe();
    unsubscribeQueued();
  }
}
