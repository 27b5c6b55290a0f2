// Which rollout served a locked-gate case on each side, for the candidate page's case-by-case traces: the rollouts
// the receipt's sealed stage 3 names — not whatever rollout of that case is newest. A re-run that has enqueued its
// own rollouts changes nothing until it seals; once sealed, its rollouts are the evidence. An unknown candidate or
// case is NOT_FOUND, through the library and through tRPC.
import { afterAll, beforeAll, expect, it } from "vitest";
import { DomainError } from "@/server/errors";
import { requestGateRun, runPendingGates } from "@/server/receipts/gate-queue";
import { caseRollouts } from "@/server/receipts/case-rollouts";
import { gateReport } from "@/server/receipts/report";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { caseTraces } from "@/server/traces/case-traces";
import { callerAs, refusal } from "../../helpers/caller";
import { describeEachDialect } from "../../helpers/db";
import { DESK_ALGORITHM } from "../../helpers/desk-candidate";
import { deskCandidate, deskGateWorld, driveDeskGate, driveGateRun, type DeskGateWorld } from "../../helpers/desk-gate";

const domainCode = (p: Promise<unknown>) => p.then(() => "resolved", (e: unknown) => (e instanceof DomainError ? e.code : `not a DomainError: ${String(e)}`));

describeEachDialect("a locked-gate case's two rollouts", (dialect) => {
  let world: DeskGateWorld;
  let candidateId: string;
  let firstRun: string;
  beforeAll(async () => {
    world = await deskGateWorld(dialect, "caseroll");
    candidateId = (await deskCandidate(world, { name: "cases" })).candidateId;
    firstRun = (await driveDeskGate(world, candidateId, 60)).id;
  }, 180_000);
  afterAll(() => world?.close());

  /** The locked-gate task a run enqueued for the case on one side (what the runner served). */
  const taskOf = async (run: string, caseId: string, side: "parent" | "candidate") => world.database.db.gateRunTask.findFirstOrThrow({ where: { gateRunId: run, phase: "locked_gate", caseId, side } });

  it("returns, for a protected case, the rollout each side's sealed result names — the runner's task for that case on the pinned resources", async () => {
    const { report } = await gateReport(world.database, candidateId);
    const row = report!.evidence.comparison.rows.find((r) => r.protected)!;
    expect(row, "the desk's held-out set has protected cases").toBeDefined();
    const got = await caseRollouts(world.database, candidateId, row.caseId);
    const [parentTask, candidateTask] = [await taskOf(firstRun, row.caseId, "parent"), await taskOf(firstRun, row.caseId, "candidate")];
    expect(got).toMatchObject({ candidateId, caseId: row.caseId, family: row.family, protected: true, gateRun: firstRun, regressed: row.regressed });
    expect(got.parent).toMatchObject({ rolloutId: parentTask.rolloutId, judged: row.parent, unavailable: null, lateEvidence: null });
    expect(got.candidate).toMatchObject({ rolloutId: candidateTask.rolloutId, judged: row.candidate, unavailable: null });
    expect(got.parent.rolloutId).not.toBe(got.candidate.rolloutId);
    // Each rollout ran that case, on its own side's pinned resources.
    for (const [side, task] of [[got.parent, parentTask], [got.candidate, candidateTask]] as const) {
      const rollout = (await world.store.getRollout(side.rolloutId!))!;
      expect(rollout.metadata).toMatchObject({ "lightgate.phase": "locked_gate", "lightgate.case": row.caseId, "lightgate.gate_run": firstRun });
      expect(rollout.resources_id).toBe(task.resourcesId);
    }

    // The traces are those two rollouts' latest attempts; each side's final reward span is the score the gate judged.
    const traces = await caseTraces(world.database, candidateId, row.caseId);
    for (const side of ["parent", "candidate"] as const) {
      const spans = (await world.store.querySpans({ rollout_id: got[side].rolloutId!, attempt_id: "latest", limit: -1 })).items;
      expect(traces.traces[side].spans.map((s) => s.span_id)).toEqual(spans.map((s) => s.span_id));
      expect(traces.traces[side].rollout).toMatchObject({ status: "succeeded", attemptId: spans[0]!.attempt_id });
      expect(traces.diff[side].reward).toBe(got[side].judged!.score);
      expect(traces.diff[side].reward).toBe(rewardValueOf(spans.filter((s) => rewardValueOf(s) !== null).at(-1)!));
    }
    expect(traces.diff.differences.some((d) => d.kind === "reward")).toBe(got.parent.judged!.score !== got.candidate.judged!.score);
  });

  it("keeps naming the sealed run's rollouts while a re-run has enqueued newer ones for the case, and the re-run's once it seals", async () => {
    const { report } = await gateReport(world.database, candidateId);
    const caseId = report!.evidence.comparison.rows[0]!.caseId;
    const before = await caseRollouts(world.database, candidateId, caseId);
    const rerun = await requestGateRun(world.database, { candidateId, actor: DESK_ALGORITHM, deadlineSeconds: 60 });
    // Step it without runners until it has asked for this case again: newer rollouts of the same case and sides.
    for (let i = 0; i < 10 && !(await world.database.db.gateRunTask.findFirst({ where: { gateRunId: rerun.id, caseId, phase: "locked_gate", side: "candidate" } })); i++) await runPendingGates(world.database, { owner: "case-test" });
    const newer = await taskOf(rerun.id, caseId, "candidate");
    expect(newer.rolloutId).not.toBe(before.candidate.rolloutId);
    expect(await caseRollouts(world.database, candidateId, caseId)).toMatchObject({ gateRun: firstRun, parent: { rolloutId: before.parent.rolloutId }, candidate: { rolloutId: before.candidate.rolloutId } });

    expect(await driveGateRun(world, rerun.id)).toMatchObject({ status: "done" });
    const after = await caseRollouts(world.database, candidateId, caseId);
    expect(after).toMatchObject({ gateRun: rerun.id, candidate: { rolloutId: newer.rolloutId }, parent: { rolloutId: (await taskOf(rerun.id, caseId, "parent")).rolloutId } });
  }, 180_000);

  it("answers NOT_FOUND for an unknown candidate, an unknown case, and a candidate no gate has judged — never a 5xx", async () => {
    expect(await domainCode(caseRollouts(world.database, "cand-nope", "held-out-1"))).toBe("NOT_FOUND");
    expect(await domainCode(caseRollouts(world.database, candidateId, "no-such-case"))).toBe("NOT_FOUND");
    const unjudged = (await deskCandidate(world, { name: "unjudged" })).candidateId;
    expect(await domainCode(caseRollouts(world.database, unjudged, "held-out-1"))).toBe("NOT_FOUND");

    const viewer = callerAs(world.database, "viewer");
    for (const [id, caseId] of [["cand-nope", "x"], [candidateId, "../x%2F?#"], [candidateId, "constructor"], [candidateId, "__proto__"], [unjudged, "x"]]) {
      expect((await refusal(viewer.candidates.caseTraces({ candidateId: id!, caseId: caseId! }))).code, `${id} ${caseId}`).toBe("NOT_FOUND");
    }
    const { report } = await gateReport(world.database, candidateId);
    const answer = await viewer.candidates.caseTraces({ candidateId, caseId: report!.evidence.comparison.rows[0]!.caseId });
    expect(answer.traces.candidate.spans.length).toBeGreaterThan(0);
  });
}, { postgresql: "full-run" });
