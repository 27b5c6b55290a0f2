// A/B test of two training configurations: each arm trains once per seed (independent seeds per arm,
// as both tests assume independent samples), each candidate is scored on the same evaluation set (never
// the gate's locked one), and every metric is compared with the chosen test — Welch's t, or Mann–Whitney
// for skewed metrics — its interval, effect sizes and prospective power, with Holm's correction across the
// metrics (server/trainers/evaluation/ab-test.ts). The chosen metric is the headline; the others are reported too.
import { z } from "zod";
import type { Database } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { evaluatePolicy } from "@/server/trainers/evaluate";
import { compareMetrics, MAX_PLANNED_RUNS, type AbReport } from "@/server/trainers/evaluation/ab-test";
import { meanInterval } from "@/server/trainers/evaluation/intervals";
import { runFamily } from "@/server/trainers/families";
import type { Policy } from "@/server/trainers/policy";
import type { Progress } from "./evaluation";
import { checkFamilyConfig, CODE_REVISION, dataResolver, DESK, DISTRIBUTION, heldOutSet, heldOutSize, parentFor, TRAINING_VALIDATION, yieldToEventLoop, ZDataSource, ZFamilyConfig, type FamilyConfig } from "./setup";

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
    /** Welch's t test (means), or Mann–Whitney (ranks: for skewed metrics, where one bad seed would drag a mean). */
    test: z.enum(["welch", "mann-whitney"]).default("welch"),
    /** The smallest difference worth detecting per metric, chosen before the test runs (prospective power). */
    effect: z
      .object({
        "mean-reward": z.number().positive("effect.mean-reward must be > 0").max(2, "effect.mean-reward must be ≤ 2").default(0.05),
        "success-rate": z.number().positive("effect.success-rate must be > 0").max(1, "effect.success-rate must be ≤ 1").default(0.05),
      })
      .strict()
      .prefault({}),
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
  const i = meanInterval(values, 1 - alpha);
  return { name, mean: i.estimate, ci: i.ci, values };
}

/** "n = 6 per arm; a difference of 0.050 in held-out mean reward (d = 1.61 at the spread seen, sd 0.031): power 0.62 here, 80 % needs 8 runs per arm; …" */
export function powerSentence(r: AbReport): string {
  const n = r.a.n === r.b.n ? `n = ${r.a.n} per arm` : `n = ${r.a.n} + ${r.b.n}`;
  const p = r.planning;
  const target = `${Math.round(p.targetPower * 100)} %`;
  if (p.d === null) return `${n}; the runs did not vary (sd 0), so any difference shows: power 1 against ${p.effect.toFixed(3)} in ${r.metric}.`;
  const need = p.runsPerArm === null ? `more than ${MAX_PLANNED_RUNS.toLocaleString("en")}` : `${p.runsPerArm}`;
  return `${n}; against a difference of ${p.effect.toFixed(3)} in ${r.metric} (d = ${p.d.toFixed(2)} at the spread seen, sd ${p.sd.toFixed(3)}): power ${p.power.toFixed(2)} here, ${target} needs ${need} runs per arm; this test detects ≥ ${p.detectable!.toFixed(3)} with ${target} power at α = ${r.alpha}.`;
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
    const run = await runFamily({ family: arm.family, config: arm.config, parent: parentFor(arm.family), environment: DESK, distribution: DISTRIBUTION, seed: s, data: dataFor(`${s}/data`), heldOut: null, validation: TRAINING_VALIDATION, codeRevision: CODE_REVISION }, arm.updates).catch((e: Error) => {
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
  const reports = compareMetrics(keys.map((key) => ({ metric: AB_METRICS[key], a: { name: r.a.name, values: a.map((x) => x[key]) }, b: { name: r.b.name, values: b.map((x) => x[key]) }, alpha: r.alpha, test: r.test, effect: r.effect[key] })));
  const metrics = reports.map((report, i): AbMetricResult => ({ ...report, key: keys[i]!, arms: [armInterval(r.a.name, report.a.values, r.alpha), armInterval(r.b.name, report.b.values, r.alpha)], powerSentence: powerSentence(report) }));
  return { primary: r.metric, metrics, heldOut: { digest: set.digest, cases: set.seeds.length }, data: { kind: r.data.kind, id: r.data.kind === "snapshot" ? r.data.digest : `expert demonstrations (${r.data.count} per run)` }, seeds };
}
