// A/B test of two training configurations: each arm trains once per seed (independent seeds per arm,
// as Welch's test assumes independent samples), each candidate is scored on the same locked held-out
// set, and every metric is compared with Welch's t test, a bootstrap interval, effect sizes and power
// (server/trainers/evaluation/ab-test.ts). The chosen metric is the headline; the others are reported too.
import { z } from "zod";
import type { Database } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { evaluatePolicy } from "@/server/trainers/evaluate";
import { compareArms, type AbReport } from "@/server/trainers/evaluation/ab-test";
import { tQuantile } from "@/server/trainers/evaluation/distributions";
import { runFamily } from "@/server/trainers/families";
import type { Policy } from "@/server/trainers/policy";
import type { Progress } from "./evaluation";
import { checkFamilyConfig, CODE_REVISION, dataResolver, DESK, DISTRIBUTION, heldOutSet, heldOutSize, parentFor, yieldToEventLoop, ZDataSource, ZFamilyConfig, type FamilyConfig } from "./setup";

export const AB_METRICS = { "mean-reward": "held-out mean reward", "success-rate": "held-out success rate" } as const;
export type AbMetric = keyof typeof AB_METRICS;

const ZArm = ZFamilyConfig.extend({ name: z.string().trim().min(1, "name must not be empty").max(60, "name must be at most 60 characters") }).strict();

export const ZAbTestRequest = z
  .object({
    name: z.string().trim().min(1, "name must not be empty").max(120, "name must be at most 120 characters").optional(),
    a: ZArm,
    b: ZArm,
    metric: z.enum(["mean-reward", "success-rate"]).default("mean-reward"),
    /** Training runs per arm. */
    seeds: z.number().int().min(2, "seeds must be ≥ 2 (a variance needs two runs per arm)").max(30, "seeds must be ≤ 30").default(6),
    alpha: z.number().min(0.001, "alpha must be ≥ 0.001").max(0.2, "alpha must be ≤ 0.2").default(0.05),
    data: ZDataSource.default({ kind: "expert", count: 120 }),
    heldOutSize,
    seed: z.string().min(1, "seed must not be empty").max(100, "seed must be at most 100 characters").default("ab"),
  })
  .strict()
  .refine((r) => r.a.name !== r.b.name, { path: ["b", "name"], message: "the two arms need different names" });
export type AbTestRequest = z.output<typeof ZAbTestRequest>;

/** Each arm's mean with its own t interval, for the chart. */
export type ArmInterval = { name: string; mean: number; ci: [number, number]; values: number[] };
export type AbMetricResult = AbReport & { key: AbMetric; arms: [ArmInterval, ArmInterval]; powerSentence: string };
export type AbTestReport = { primary: AbMetric; metrics: AbMetricResult[]; heldOut: { digest: string; cases: number }; data: { kind: string; id: string }; seeds: string[] };

export function checkAbTestRequest(r: AbTestRequest): void {
  checkFamilyConfig(r.a, "a", r.data);
  checkFamilyConfig(r.b, "b", r.data);
}

function armInterval(name: string, values: number[], alpha: number): ArmInterval {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = sd === 0 ? 0 : tQuantile(1 - alpha / 2, n - 1) * (sd / Math.sqrt(n));
  return { name, mean, ci: [mean - half, mean + half], values };
}

/** "n = 6 per arm; power 0.80 to detect a difference of ≥ 0.051 in held-out mean reward (d ≥ 1.80) at α = 0.05; …" */
export function powerSentence(r: AbReport): string {
  const n = r.a.n === r.b.n ? `n = ${r.a.n} per arm` : `n = ${r.a.n} + ${r.b.n}`;
  const mde = r.power.minimumDetectableEffect;
  const size = Number.isFinite(mde.metric) && mde.metric > 0 ? `a difference of ≥ ${mde.metric.toFixed(3)} in ${r.metric} (d ≥ ${mde.d.toFixed(2)})` : `a standardized difference d ≥ ${mde.d.toFixed(2)}`;
  return `${n}; power ${r.power.target.toFixed(2)} to detect ${size} at α = ${r.alpha}; power against the observed difference: ${r.power.observed.toFixed(2)}.`;
}

export async function runAbTest(database: Database, r: AbTestRequest, progress: Progress): Promise<AbTestReport> {
  checkAbTestRequest(r);
  const set = heldOutSet(r.heldOutSize);
  const dataFor = await dataResolver(database, r.data);
  const seeds = Array.from({ length: r.seeds }, (_, i) => `${r.seed}/${i + 1}`);
  const total = 2 * seeds.length;
  let done = 0;
  const measure = async (arm: FamilyConfig, label: "A" | "B", seed: string) => {
    const s = `${seed}/${label}`;
    const run = await runFamily({ family: arm.family, config: arm.config, parent: parentFor(arm.family), environment: DESK, distribution: DISTRIBUTION, seed: s, data: dataFor(`${s}/data`), heldOut: set, codeRevision: CODE_REVISION }, arm.updates).catch((e: Error) => {
      throw badInput(label === "A" ? "a" : "b", e.message);
    });
    const e = evaluatePolicy(DESK, (run.candidate as unknown as { policy: Policy }).policy, set);
    await progress(++done / total, `arm ${label}: run ${Math.ceil(done / 2)} of ${seeds.length}`);
    await yieldToEventLoop();
    return { "mean-reward": e.meanReward, "success-rate": e.successRate };
  };
  const a: Record<AbMetric, number>[] = [];
  const b: Record<AbMetric, number>[] = [];
  for (const seed of seeds) {
    a.push(await measure(r.a, "A", seed));
    b.push(await measure(r.b, "B", seed));
  }
  const keys = [r.metric, ...(Object.keys(AB_METRICS) as AbMetric[]).filter((k) => k !== r.metric)];
  const metrics = keys.map((key): AbMetricResult => {
    const av = a.map((x) => x[key]);
    const bv = b.map((x) => x[key]);
    const report = compareArms({ metric: AB_METRICS[key], a: { name: r.a.name, values: av }, b: { name: r.b.name, values: bv }, alpha: r.alpha, seed: `${r.seed}/${key}`, resamples: 4000 });
    return { ...report, key, arms: [armInterval(r.a.name, av, r.alpha), armInterval(r.b.name, bv, r.alpha)], powerSentence: powerSentence(report) };
  });
  return { primary: r.metric, metrics, heldOut: { digest: set.digest, cases: set.seeds.length }, data: { kind: r.data.kind, id: r.data.kind === "snapshot" ? r.data.digest : `expert demonstrations (${r.data.count} per run)` }, seeds };
}
