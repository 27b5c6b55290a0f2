import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { listAudit } from "@/server/audit/audit-log";
import type { AbTestReport } from "@/server/evaluations/ab";
import type { EvaluationReport } from "@/server/evaluations/evaluation";
import { jobSettled } from "@/server/evaluations/jobs";
import { callerAs } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const SLOW = { name: "two slow epochs", family: "supervised" as const, config: { learningRate: 0.002, maxEpochs: 2 } };
const DEFAULT = { name: "default", family: "supervised" as const, config: {} };

describeEachDialect("evaluations and A/B tests over tRPC", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "evaluations");
  });
  afterAll(() => database?.drop());

  async function finished(id: string) {
    await jobSettled(id);
    return callerAs(database, "viewer").evaluations.get({ id });
  }

  it("an A/B test of two genuinely different configs finds a significant difference with its interval and power", async () => {
    const { id } = await callerAs(database, "trainer").evaluations.startAbTest({ a: SLOW, b: DEFAULT, seeds: 4, heldOutSize: 100 });
    expect(id).toMatch(/^ab-/);
    const job = await finished(id);
    expect(job).toMatchObject({ kind: "ab-test", status: "succeeded", progress: 1, name: "two slow epochs vs default" });
    const r = job.result as AbTestReport;
    const m = r.metrics[0]!;
    expect(m.key).toBe("mean-reward");
    expect(m.significant).toBe(true);
    expect(m.welch.pValue).toBeLessThan(0.01);
    expect(m.welch.ci[0]).toBeGreaterThan(0.3);
    expect(m.a.n).toBe(4);
    expect(m.powerSentence).toMatch(/^n = 4 per arm; against a difference of 0\.050 in held-out mean reward \(d = \d+\.\d\d at the spread seen, sd 0\.\d{3}\): power \d\.\d\d here, 80 % needs \d+ runs per arm/);
    // Two metrics compared: significance on Holm-adjusted p.
    expect(m.comparedMetrics).toBe(2);
    expect(m.adjustedP).toBeGreaterThanOrEqual(m.decision.pValue);
    expect(job.headline).toMatch(/^significant: Δ \+0\.\d{3}/);
    expect(r.metrics.map((x) => x.key)).toEqual(["mean-reward", "success-rate"]);
  });

  it("two identical configurations show no significant difference", async () => {
    const { id } = await callerAs(database, "trainer").evaluations.startAbTest({ a: DEFAULT, b: { ...DEFAULT, name: "default again" }, seeds: 6, heldOutSize: 100, test: "mann-whitney" });
    const job = await finished(id);
    const m = (job.result as AbTestReport).metrics[0]!;
    expect(job.status).toBe("succeeded");
    expect(m.a.values).not.toEqual(m.b.values);
    expect(m.significant).toBe(false);
    expect(m.decision).toMatchObject({ test: "mann-whitney" });
    expect(m.decision.ci![0]).toBeLessThan(0);
    expect(m.decision.ci![1]).toBeGreaterThan(0);
    expect(m.welch.ci[0]).toBeLessThan(0);
    expect(m.welch.ci[1]).toBeGreaterThan(0);
    expect(job.headline).toMatch(/^no significant difference/);
  });

  it("an evaluation runs its protocols and reports the metrics, with per-fold and per-domain breakdowns", async () => {
    const { id } = await callerAs(database, "admin").evaluations.start({
      subject: { kind: "family", family: "supervised", updates: 10 },
      protocols: ["held-out", "k-fold", "domain-transfer", "few-shot"],
      folds: 3,
      heldOutSize: 60,
      data: { kind: "expert", count: 150 },
    });
    const job = await finished(id);
    expect(job.status).toBe("succeeded");
    const r = job.result as EvaluationReport;
    const byKey = Object.fromEntries(r.metrics.map((m) => [m.key, m]));
    expect(byKey["success-rate"]!.value).toBeGreaterThan(0.5);
    // Single-policy figures carry 95 % intervals over the tasks (exact binomial for the rate, t for the reward).
    const h = r.heldOutResult!;
    expect(byKey["success-rate"]!.ci).toEqual(h.successRateCi);
    expect(h.successRateCi[0]).toBeLessThan(h.successRate);
    expect(h.successRateCi[1]).toBeGreaterThan(h.successRate);
    expect(h.meanRewardCi[0]).toBeLessThan(h.meanReward);
    expect(h.meanRewardCi[1] - h.meanRewardCi[0]).toBeLessThan(0.5);
    expect(byKey["success-rate"]!.display).toMatch(/^\d+\.\d % \(95 % CI \d+\.\d % … \d+\.\d %\)$/);
    expect(r.kFold!.ci[0]).toBeLessThanOrEqual(r.kFold!.mean);
    expect(r.domainTransfer!.gapCi[0]).toBeLessThan(byKey["generalization"]!.value!);
    expect(byKey["stability"]!.basis).toBe("spread of accuracy over 3 folds; χ² interval of an SD");
    expect(byKey["generalization"]!.value).toBeGreaterThan(0.2); // trained on self-serve only, it does worse elsewhere
    expect(r.kFold!.folds).toHaveLength(3);
    expect(r.domainTransfer!.domains.map((d) => d.domain)).toEqual(["self-serve", "incident", "protected"]);
    expect(r.learningCurve!.length).toBeGreaterThan(0);
    const list = await callerAs(database, "viewer").evaluations.list({ kind: "evaluation" });
    expect(list.rows.map((x) => x.id)).toContain(id);
    const audit = await listAudit(database.db, { targetType: "evaluation", targetId: id });
    expect(audit.rows.map((a) => a.action)).toEqual(["evaluation.start"]);
  });

  it("refuses viewers, invalid family configs (naming the field) and protocols a stored policy cannot run", async () => {
    await expect(callerAs(database, "viewer").evaluations.startAbTest({ a: SLOW, b: DEFAULT })).rejects.toThrow(/lacks the "training:run" scope/);
    await expect(callerAs(database, "viewer").evaluations.start({ subject: { kind: "family", family: "supervised" }, protocols: ["held-out"] })).rejects.toThrow(/lacks the "training:run" scope/);
    const bad = await callerAs(database, "trainer").evaluations.startAbTest({ a: SLOW, b: { ...DEFAULT, config: { batchSize: 0 } } }).catch((e: TRPCError) => e);
    expect(bad).toBeInstanceOf(TRPCError);
    expect((bad as TRPCError).code).toBe("BAD_REQUEST");
    expect((bad as TRPCError).message).toBe("b.config: batchSize: batchSize must be ≥ 1");
    await expect(callerAs(database, "trainer").evaluations.startAbTest({ a: DEFAULT, b: { ...DEFAULT, name: "pd", family: "pattern-discovery" } })).rejects.toThrow(/^b\.family: pattern-discovery makes a task-clusters, not a policy/);
    await expect(callerAs(database, "trainer").evaluations.start({ subject: { kind: "resource", resourcesId: "rs-none", version: 1 }, protocols: ["k-fold"] })).rejects.toThrow(/^protocols: k-fold trains the family/);
    await expect(callerAs(database, "trainer").evaluations.start({ subject: { kind: "family", family: "ppo" }, protocols: ["temporal"] })).rejects.toThrow(/^protocols: temporal scores imitation of held-out demonstrations: ppo does not learn from them/);
    await expect(callerAs(database, "trainer").evaluations.start({ subject: { kind: "resource", resourcesId: "rs-none", version: 1 }, protocols: ["held-out"] })).rejects.toThrow(/no resources rs-none version 1/);
    await expect(callerAs(database, "viewer").evaluations.get({ id: "ev-missing" })).rejects.toThrow(/no evaluation or A\/B test ev-missing/);
  });
});
