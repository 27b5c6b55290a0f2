import { describe, expect, it } from "vitest";
import { Rng } from "@/server/environments/prng";
import { deskDomainDistribution } from "@/server/environments/support-desk/domains";
import { AdaptiveController, adaptiveSchema } from "@/server/trainers/continual/adaptive";
import { featureShift, PageHinkley, pageHinkleySchema } from "@/server/trainers/continual/change-detector";
import { lockHeldOutSet } from "@/server/trainers/evaluate";
import { accuracy } from "@/server/trainers/advanced/reptile";
import type { SoftmaxLinearPolicy } from "@/server/trainers/policy";
import { imitationItems } from "@/server/trainers/supervised/examples";
import { V2, desk, domainDemos, gateScore, policyOf, receiptOf, run, snapshot } from "../../helpers/families";

const DOMAINS = ["self-serve", "incident", "protected"] as const;
const stream = DOMAINS.flatMap((d, k) => domainDemos(d, 200, `stream-${d}`, `2026-0${k + 1}-01T00:00:00.000Z`, 0.05));
const data = snapshot(stream);
const test = Object.fromEntries(DOMAINS.map((d) => [d, imitationItems(desk, domainDemos(d, 100, `test-${d}`, "2026-06-01T00:00:00.000Z", 0), "uniform")]));
const firstDomain = lockHeldOutSet(desk, deskDomainDistribution(V2, "self-serve"), 150, "continual-self-serve");
const cont = (config: unknown, updates = 40) => run({ family: "continual", config, data, updates });
const acc = (r: Awaited<ReturnType<typeof cont>>, d: string) => accuracy(Float64Array.from((policyOf(r) as SoftmaxLinearPolicy).weights), test[d]!, desk.actions.length);

describe("continual learning over a changing stream", () => {
  it("replay + EWC retain the first domain; naive incremental training forgets it", async () => {
    const naive = await cont({ replay: { enabled: false }, ewc: { enabled: false } });
    const full = await cont({});
    // Held-out imitation accuracy on the first domain after all three. Measured: naive 0.734, replay + EWC 0.977.
    expect(acc(full, "self-serve")).toBeGreaterThan(0.95);
    expect(acc(full, "self-serve") - acc(naive, "self-serve")).toBeGreaterThan(0.15);
    // …and in rollouts on first-domain tickets.
    expect(gateScore(policyOf(full), firstDomain).meanReward - gateScore(policyOf(naive), firstDomain).meanReward).toBeGreaterThan(0.1);
    // The family's own retention report (stream data of each finished domain, now vs when the stream moved on).
    const retention = (r: typeof full) => (r.report.retention as Record<string, number>)["self-serve"]!;
    expect(retention(full)).toBeGreaterThan(0.95);
    expect(retention(full) - retention(naive)).toBeGreaterThan(0.1);
    // Both learned the last domain.
    expect(acc(full, "protected")).toBeGreaterThan(0.9);
    expect(acc(naive, "protected")).toBeGreaterThan(0.9);
  });

  it("detects the task boundaries from the stream alone, at most one batch late", async () => {
    const r = await cont({});
    const detected = r.report.detectedBoundaries as number[];
    const labelled = r.report.labelledBoundaries as number[];
    expect(labelled).toHaveLength(2);
    for (const b of labelled) expect(detected.some((d) => d >= b && d <= b + 1)).toBe(true);
    // Trusting the records' labels instead consolidates exactly there.
    expect((await cont({ boundaries: { mode: "labels" } })).report.detectedBoundaries).toEqual(labelled);
  });

  it("every option changes what is computed", async () => {
    const base = (await cont({}, 8)).candidate.digest;
    const variants: Record<string, unknown> = {
      streamBatch: { streamBatch: 25 },
      innerEpochs: { innerEpochs: 1 },
      batchSize: { batchSize: 8 },
      learningRate: { learningRate: 0.02 },
      "replay.enabled": { replay: { enabled: false } },
      "replay.capacity": { replay: { capacity: 50 } },
      "replay.rehearsalFraction": { replay: { rehearsalFraction: 0.6 } },
      "ewc.enabled": { ewc: { enabled: false } },
      "ewc.strength": { ewc: { strength: 5 } },
      "ewc.fisherSamples": { ewc: { fisherSamples: 20 } },
      "boundaries.mode": { boundaries: { mode: "none" } },
      "boundaries.detector": { boundaries: { detector: { kind: "page-hinkley" } } },
      "adaptive.enabled": { adaptive: { enabled: false } },
      "adaptive.window": { adaptive: { window: 1 } },
    };
    for (const [option, config] of Object.entries(variants)) expect((await cont(config, 8)).candidate.digest, option).not.toBe(base);
    // γ acts once a second task is consolidated.
    expect((await cont({ ewc: { gamma: 0.5 } }, 15)).candidate.digest).not.toBe((await cont({}, 15)).candidate.digest);
  });

  it("its candidate carries a complete stage-1 receipt; the stream must be ordered by time", async () => {
    expect(receiptOf(await cont({}, 2)).algorithm.name).toBe("continual");
    await expect(run({ family: "continual", data: snapshot(stream.map((d) => ({ ...d, recordedAt: null }))), updates: 1 })).rejects.toThrow(/orders its stream by recordedAt/);
  });
});

describe("task-boundary detectors", () => {
  it("feature shift: quiet within one distribution, fires when the inputs change", () => {
    const rng = Rng.from("fs");
    const sample = (p: number) => Array.from({ length: 60 }, () => Float64Array.from([rng.bernoulli(p) ? 1 : 0, rng.next()]));
    const ref = sample(0.2);
    expect(featureShift(ref, sample(0.2), 0.001).shifted).toBe(false);
    const shifted = featureShift(ref, sample(0.8), 0.001);
    expect(shifted.shifted).toBe(true);
    expect(shifted.feature).toBe(0);
  });

  it("Page–Hinkley: fires after an upward shift in the mean, not before", () => {
    const ph = new PageHinkley(pageHinkleySchema.parse({ kind: "page-hinkley", delta: 0.05, threshold: 1 }));
    const rng = Rng.from("ph");
    const fired: number[] = [];
    for (let t = 0; t < 60; t++) if (ph.observe((t < 40 ? 0.3 : 1.3) + 0.1 * (rng.next() - 0.5))) fired.push(t);
    expect(fired.length).toBeGreaterThan(0);
    expect(fired[0]).toBeGreaterThanOrEqual(40);
    expect(fired[0]).toBeLessThanOrEqual(42);
  });
});

describe("adaptive learning", () => {
  it("raises the learning rate on a plateau, lowers it on a decline, raises exploration on a new task", () => {
    const cfg = adaptiveSchema.parse({ window: 2 });
    const a = new AdaptiveController(cfg, 0.1);
    expect([a.observe(0.5), a.observe(0.6)]).toEqual(["warming_up", "warming_up"]);
    expect(a.observe(0.8)).toBe("rapid_improvement");
    expect(a.learningRate).toBe(0.1);
    expect(a.observe(0.8)).toBe("performance_plateau");
    expect(a.learningRate).toBeCloseTo(0.15, 12);
    expect(a.observe(0.5)).toBe("performance_decline");
    expect(a.learningRate).toBeCloseTo(0.075, 12);
    expect(a.newTask()).toBe("new_task_type");
    expect(a.exploration).toBe(0.3);
    expect(a.learningRate).toBe(0.1);
    a.observe(0.2);
    expect(a.exploration).toBeCloseTo(0.21, 12);
    const off = new AdaptiveController(adaptiveSchema.parse({ enabled: false, window: 1 }), 0.1);
    off.observe(0.5);
    off.observe(0.5);
    expect(off.learningRate).toBe(0.1);
  });
});
