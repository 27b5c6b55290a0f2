import { describe, expect, it } from "vitest";
import { deskDomainDistribution } from "@/server/environments/support-desk/domains";
import { lockHeldOutSet, pinOf } from "@/server/trainers/evaluate";
import { adaptationSpeed, generalization, learningEfficiency, retention, stability, successRate } from "@/server/trainers/evaluation/metrics";
import { adversarial, crossValidate, domainTransfer, fewShot, heldOut, kFolds, temporalValidation } from "@/server/trainers/evaluation/protocols";
import type { SoftmaxLinearPolicy } from "@/server/trainers/policy";
import { CODE_REVISION, GATE, UNIFORM, V2, desk, domainDemos, expertDemos, policyOf, run, snapshot } from "../../helpers/families";

const demos = expertDemos(240, "protocols");
const init = { family: "supervised" as const, config: {}, parent: UNIFORM, environment: desk, distribution: V2, seed: "proto", heldOut: pinOf(GATE), codeRevision: CODE_REVISION };
const trained = run({ family: "supervised", data: snapshot(demos), updates: 30 }).then((r) => policyOf(r) as SoftmaxLinearPolicy);

describe("evaluation metrics", () => {
  it("compute success rate, learning efficiency, retention, adaptation speed, generalization and stability", () => {
    expect(successRate([true, false, true, true])).toBe(0.75);
    const eff = learningEfficiency([0, 0.2, 0.4], 100);
    expect(eff.areaUnderCurve).toBeCloseTo(0.2, 12);
    expect(eff.gainPer1kEpisodes).toBeCloseTo(2, 12);
    expect(retention(0.8, 0.6).ratio).toBeCloseTo(0.75, 12);
    expect(adaptationSpeed([0.1, 0.5, 0.9, 0.95], 0.9)).toBe(3);
    expect(adaptationSpeed([0.1], 0.9)).toBeNull();
    expect(generalization(0.9, 0.6).gap).toBeCloseTo(0.3, 12);
    const s = stability([0.5, 0.7, 0.4, 0.6]);
    expect(s.worstDrop).toBeCloseTo(0.3, 12);
    expect(s.sd).toBeCloseTo(Math.sqrt(((0.05 ** 2) * 2 + 0.15 ** 2 * 2) / 3), 12);
  });
});

describe("evaluation protocols", () => {
  it("held-out: the locked set, deterministic", async () => {
    const p = await trained;
    expect(heldOut(desk, p, GATE)).toEqual(heldOut(desk, p, GATE));
    expect(heldOut(desk, p, GATE).successRate).toBeGreaterThan(heldOut(desk, UNIFORM, GATE).successRate);
  });

  it("k-fold cross-validation: disjoint folds covering every demonstration, one score per fold", async () => {
    const folds = kFolds(demos, 4, "s");
    expect(folds.flat().map((d) => d.id).sort()).toEqual(demos.map((d) => d.id).sort());
    expect(new Set(folds.flat().map((d) => d.id)).size).toBe(demos.length);
    const cv = await crossValidate(init, demos, 4, 20);
    expect(cv.folds).toHaveLength(4);
    expect(cv.mean).toBeGreaterThan(0.85);
    expect(cv.sd).toBeGreaterThan(0);
  });

  it("temporal: trains on the past, tests on the future", async () => {
    const t = await temporalValidation(init, demos, 0.75, 20);
    expect(Date.parse(t.cutAt)).toBeGreaterThan(Date.parse(demos[0]!.recordedAt!));
    expect(t.future).toBeGreaterThan(0.8);
    expect(t.past).toBeGreaterThanOrEqual(t.future - 0.05);
  });

  it("domain transfer: a policy trained on self-serve tickets does worse on protected ones", async () => {
    const p = policyOf(await run({ family: "supervised", data: snapshot(domainDemos("self-serve", 200, "tr", "2026-01-01T00:00:00.000Z")), updates: 30 }));
    const sets = Object.fromEntries((["self-serve", "protected"] as const).map((d) => [d, lockHeldOutSet(desk, deskDomainDistribution(V2, d), 80, `transfer-${d}`)]));
    const r = domainTransfer(desk, p, sets["self-serve"]!, { protected: sets.protected! });
    expect(r.targets.protected!.transferGap).toBeGreaterThan(0.3);
  });

  it("few-shot: a handful of steps on a new family's demonstrations raise accuracy on the rest", async () => {
    const p = await trained;
    const refunds = demos.filter((d) => d.domain === "incident");
    const r = fewShot(desk, p.weights, refunds, { support: 10, steps: 5, learningRate: 0.5, seed: "fs" });
    expect(r.after).toBeGreaterThanOrEqual(r.before);
    const scratch = fewShot(desk, UNIFORM.weights, refunds, { support: 10, steps: 5, learningRate: 0.5, seed: "fs" });
    expect(scratch.after).toBeGreaterThan(scratch.before);
  });

  it("adversarial: perturbed task features cost reward; clean is the held-out score", async () => {
    const p = await trained;
    const r = adversarial(desk, p, GATE, { noise: 0.3, flip: 0.5, seed: "adv" });
    expect(r.clean.meanReward).toBe(heldOut(desk, p, GATE).meanReward);
    expect(r.drop).toBeGreaterThan(0.05);
    const none = adversarial(desk, p, GATE, { noise: 0, flip: 0, seed: "adv" });
    expect(none.drop).toBeCloseTo(0, 12);
  });
});
