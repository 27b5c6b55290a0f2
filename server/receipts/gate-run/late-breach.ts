// An out-of-boundary span of a canary-stage rollout is a breach however late it comes. Before the seal the run
// itself sees it (settle.ts); after, the orchestrator's pass looks at the sealed stage of each candidate the
// canary pointer names: a judged rollout that moved on is read again, and a breach in what it now holds aborts
// the stage through the same path a live breach takes (the guard moves the canary pointer back, signed).
import type { Database } from "@/server/db/client";
import { boundaryBreach, type CanaryObservation } from "@/server/gate/evidence/gate-rollouts";
import { abortStageOf } from "./canary-stage";
import { gateRunContext } from "./context";
import { resultOf } from "./judge";
import { movedTasks } from "./sources";
import type { RunState } from "./step";
import { readTasks } from "./tasks";

/** Aborts sealed canary stages that a late out-of-boundary span breached; returns how many it aborted. */
export async function abortLateBreaches(database: Database, now = new Date()): Promise<number> {
  const db = database.db;
  const pointers = await db.pointer.findMany({ where: { kind: "canary", candidateId: { not: null } }, select: { candidateId: true, digest: true } });
  let aborted = 0;
  for (const pointer of pointers) {
    const run = await db.gateRun.findFirst({ where: { candidateId: pointer.candidateId!, kind: "canary-stage", status: "done" }, orderBy: [{ finishedAt: "desc" }, { id: "desc" }] });
    const state = run?.pins ? (JSON.parse(run.pins) as RunState) : null;
    if (!run || !state || state.abort) continue;
    const tasks = await db.gateRunTask.findMany({ where: { gateRunId: run.id, phase: "canary_stage", state: "done" }, select: { rolloutId: true, phase: true, side: true, caseId: true, state: true, result: true } });
    const moved = await movedTasks(db, tasks);
    if (moved.length === 0) continue;
    const ctx = await gateRunContext(database, run);
    if (ctx.stage1.candidate.digest !== pointer.digest) continue;
    const observed = (await readTasks(database, moved.map((m) => m.task))).flatMap((read): CanaryObservation[] => {
      const r = resultOf(ctx, read);
      return r?.kind === "canary" ? [r] : [];
    });
    const breach = boundaryBreach(observed, ctx.stage1.expectedEvidence.canaryBoundary);
    if (!breach) continue;
    const reason = `late evidence after the seal at ${run.finishedAt?.toISOString() ?? "(unknown)"}: ${breach}`;
    state.canary = state.canary ? { ...state.canary, stop: { kind: "breach", reason, at: now.toISOString() } } : null;
    // Several orchestrators may see it: the one that swaps the run's state first aborts, once.
    state.abort = { moved: false, detail: "aborting: a late span breached the boundary" };
    const { count } = await db.gateRun.updateMany({ where: { id: run.id, pins: run.pins }, data: { pins: JSON.stringify(state) } });
    if (count !== 1) continue;
    state.abort = await abortStageOf(database, run, ctx.stage1, reason, now);
    await db.gateRun.update({ where: { id: run.id }, data: { pins: JSON.stringify(state) } });
    aborted += 1;
  }
  return aborted;
}
