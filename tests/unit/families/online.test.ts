import { describe, expect, it } from "vitest";
import { lockValidationSet } from "@/server/trainers/evaluate";
import { OnlineLearner, onlineConfigSchema } from "@/server/trainers/continual/online";
import { decideAfterUpdate } from "@/server/trainers/continual/rollback";
import { policyDigest } from "@/server/trainers/policy-resource";
import { UNIFORM, V2, desk, gateScore, learnedScore, policyOf, receiptOf, run, snapshot } from "../../helpers/families";
import { simulateRatings, slippingInteractions } from "../../helpers/feedback";

const NOW = "2026-03-01T00:00:00.000Z";
// The learner monitors its own validation split, never the exam (gateScore below is the test measuring).
const MONITOR = lockValidationSet(desk, "v2", 200, "monitor");
const runs = slippingInteractions(desk, V2, 600, 0.35, "online");
const interactions = runs.map((r) => r.interaction);
const online = (raters: Parameters<typeof simulateRatings>[1], config: unknown = {}) =>
  run({ family: "online", config, data: snapshot([...interactions, ...simulateRatings(runs, raters, { seed: "o", givenAt: NOW })]), updates: 100, validation: MONITOR });

describe("online learning from single interactions' feedback", () => {
  it("processFeedback: unknown interactions, low confidence and no-signal feedback are not queued; a full batch is applied", () => {
    const learner = new OnlineLearner(desk, UNIFORM, onlineConfigSchema.parse({ batchSize: 2 }), "s", MONITOR);
    for (const i of interactions.slice(0, 5)) learner.recordInteraction(i);
    const id = interactions[0]!.id;
    expect(learner.processFeedback("nope", { rating: 5 }).status).toBe("unknown-interaction");
    // confidence = credibility × decisiveness: 4 stars by a fully trusted rater is 0.5, below the 0.8 threshold.
    expect(learner.processFeedback(id, { rating: 4 })).toMatchObject({ status: "below-confidence", confidence: 0.5 });
    expect(learner.processFeedback(id, { rating: 3 }).status).toBe("no-signal");
    expect(learner.processFeedback(id, { rating: 5, credibility: 0.7 }).status).toBe("below-confidence");
    expect(learner.processFeedback(id, { rating: 5 })).toMatchObject({ status: "queued", pending: 1, applied: null });
    // A correction queues another; with 2 pending (the batch size) the batch is applied and judged.
    const r = learner.processFeedback(interactions[1]!.id, { correction: { step: 0, action: "ask_clarifying_question" } });
    expect(r.status).toBe("queued");
    expect(r.applied).not.toBeNull();
    expect(r.pending).toBe(0);
    expect(["new-candidate", "propose-rollback"]).toContain(r.applied!.action);
  });

  it("learns from honest feedback in batches: the candidate beats its parent on the locked held-out set", async () => {
    const r = await online([{ id: "lead", credibility: 0.9, judge: "honest" }, { id: "guess", credibility: 0.3, judge: "random" }]);
    const counts = r.report.counts as Record<string, number>;
    expect(counts.belowConfidence).toBeGreaterThan(0);
    expect(counts.applied).toBeGreaterThan(2);
    // Measured: −0.255 → +0.200 mean reward, 50 % success; no rollback proposed.
    expect(gateScore(policyOf(r)).meanReward - gateScore(UNIFORM).meanReward).toBeGreaterThan(0.3);
    expect((r.report.decisions as { action: string }[]).every((d) => d.action === "new-candidate")).toBe(true);
  });

  it("proposes a rollback to the exact accepted parent when a batch makes things worse — and keeps acting as that parent", async () => {
    const r = await online([{ id: "saboteur", credibility: 0.95, judge: "inverted" }]);
    const decisions = r.report.decisions as { action: string; to?: string; from?: string; reason: string; before: number; after: number }[];
    const rollbacks = decisions.filter((d) => d.action === "propose-rollback");
    expect(rollbacks.length).toBeGreaterThan(0);
    const first = decisions.findIndex((d) => d.action === "propose-rollback");
    const acceptedBefore = first === 0 ? policyDigest(UNIFORM) : (decisions[first - 1] as { candidate?: string }).candidate;
    expect(rollbacks[0]!.to).toBe(acceptedBefore);
    expect(rollbacks[0]!.after).toBeLessThan(rollbacks[0]!.before - 0.02);
    expect(rollbacks[0]!.reason).toMatch(/validation mean reward fell from .* to .*: return to sha256:/);
    // Nothing was published as the default: the decision is data for the gate to route.
    expect(Object.keys(rollbacks[0]!).sort()).toEqual(["action", "after", "before", "from", "reason", "to"]);
    const lenient = await online([{ id: "saboteur", credibility: 0.95, judge: "inverted" }], { rollback: { tolerance: 1 } });
    expect((lenient.report.decisions as { action: string }[]).every((d) => d.action === "new-candidate")).toBe(true);
    const noRollback = await online([{ id: "saboteur", credibility: 0.95, judge: "inverted" }], { rollback: { enabled: false } });
    // What each learned (sampling at T = 1): served greedily, this saboteur's damage hardly shows in either.
    expect(learnedScore(policyOf(r)).meanReward).toBeGreaterThan(learnedScore(policyOf(noRollback)).meanReward);
  });

  it("decides: a drop beyond the tolerance is a rollback proposal, anything else a new candidate", () => {
    const a = `sha256:${"a".repeat(64)}` as const;
    const b = `sha256:${"b".repeat(64)}` as const;
    expect(decideAfterUpdate({ accepted: a, candidate: b, before: 0.5, after: 0.47, tolerance: 0.02, metric: "m" })).toMatchObject({ action: "propose-rollback", to: a, from: b });
    expect(decideAfterUpdate({ accepted: a, candidate: b, before: 0.5, after: 0.49, tolerance: 0.02, metric: "m" })).toMatchObject({ action: "new-candidate", candidate: b, parent: a });
  });

  // None of these options is about rollback (the test above covers it): without the monitor, a run no longer
  // scores 200 validation tasks per batch — that was nearly all of this test's time.
  it("every option changes what is computed; its candidate carries a complete stage-1 receipt", async () => {
    const raters = [{ id: "lead", credibility: 0.9, judge: "honest" as const }];
    const digest = async (config: unknown) => (await online(raters, { feedbackPerUpdate: 50, rollback: { enabled: false }, ...(config as object) })).candidate.digest;
    const base = await digest({});
    for (const config of [{ adaptationRate: 0.3 }, { confidenceThreshold: 0.4 }, { batchSize: 8 }, { epochs: 1 }, { disapprovalWeight: 0.5, confidenceThreshold: 0 }]) {
      expect(await digest(config), JSON.stringify(config)).not.toBe(base);
    }
    expect(await digest({ anchorStrength: 5 })).not.toBe(base);
    // A lower midpoint makes 4 stars decisive enough (0.6) to pass a 0.5 threshold.
    expect(await digest({ ratingMidpoint: 2, confidenceThreshold: 0.5 })).not.toBe(await digest({ confidenceThreshold: 0.5 }));
    const withRule = await run({
      family: "online",
      config: { suggestionRules: { hand_over: { action: "escalate_to_human", at: "first" } }, rollback: { enabled: false } },
      data: snapshot([...interactions, ...simulateRatings(runs, raters, { seed: "o", givenAt: NOW }).map((f) => ({ ...f, rating: null, suggestions: ["hand_over"] }))]),
      updates: 100,
      validation: MONITOR,
    });
    expect((withRule.report.counts as Record<string, number>).queued).toBe(runs.length);
    expect(receiptOf(withRule).algorithm.name).toBe("online");
  });
});
