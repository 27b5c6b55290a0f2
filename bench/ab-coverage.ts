// `npm run bench:ab-coverage [-- --tests 10000 --pool 60]`: how often the A/B test calls two identical
// configurations different, at 6 runs per arm and α = 0.05 (nominal: 5 %).
//  1. Simulated runs: normal, skewed (a seed in seven fails) and a success rate of 100 tasks (ties).
//  2. Real runs: a pool of `--pool` supervised training runs of one config (each its own demonstrations and
//     minibatch order), scored on 200 evaluation tasks; each simulated A/B test draws 6 + 6 of them without
//     replacement.
// For each: Welch's t test (the decision and its interval), Mann–Whitney U (exact), and — for comparison —
// the percentile bootstrap interval the A/B page used to show (2,000 resamples), which over-rejects.
import os from "node:os";
import { Rng } from "@/server/environments/prng";
import { expertData, DESK, DISTRIBUTION, parentFor, CODE_REVISION, TRAINING_VALIDATION, heldOutSet } from "@/server/evaluations/setup";
import { evaluatePolicy } from "@/server/trainers/evaluate";
import { decide } from "@/server/trainers/evaluation/ab-test";
import { runFamily } from "@/server/trainers/families";
import type { Policy } from "@/server/trainers/policy";
import { gaussian } from "@/server/trainers/supervised/fitter";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TESTS = arg("tests", 10_000);
const POOL = arg("pool", 60);
const RUNS = 6;

/** The percentile bootstrap of mean(b) − mean(a): the interval the page showed before (seeded). */
function percentileBootstrapRejects(a: number[], b: number[], rng: Rng, resamples = 2_000): boolean {
  const diffs = new Float64Array(resamples);
  const mean = (xs: number[]) => {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += xs[rng.int(xs.length)]!;
    return s / xs.length;
  };
  for (let i = 0; i < resamples; i++) diffs[i] = mean(b) - mean(a);
  diffs.sort();
  return diffs[Math.floor(0.025 * resamples)]! > 0 || diffs[Math.ceil(0.975 * resamples) - 1]! < 0;
}

function rates(label: string, draw: (rng: Rng) => [number[], number[]]) {
  const rng = Rng.from(`bench/ab/${label}`);
  const boot = Rng.from(`bench/ab/${label}/bootstrap`);
  let welch = 0;
  let mw = 0;
  let bootstrap = 0;
  const t0 = performance.now();
  for (let i = 0; i < TESTS; i++) {
    const [a, b] = draw(rng);
    if (decide(a, b, { test: "welch", alpha: 0.05 }).pValue < 0.05) welch++;
    if (decide(a, b, { test: "mann-whitney", alpha: 0.05 }).pValue < 0.05) mw++;
    if (percentileBootstrapRejects(a, b, boot)) bootstrap++;
  }
  const pct = (k: number) => `${((100 * k) / TESTS).toFixed(1)} %`;
  console.log(`${label.padEnd(34)} Welch ${pct(welch).padStart(6)}   Mann–Whitney ${pct(mw).padStart(6)}   percentile bootstrap ${pct(bootstrap).padStart(6)}   (${TESTS.toLocaleString("en")} tests, ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

const shapes: Record<string, (rng: Rng) => number> = {
  "normal (0.45 ± 0.03)": (rng) => 0.45 + 0.03 * gaussian(rng),
  "skewed: failing seeds (1 in 7)": (rng) => (rng.next() < 0.15 ? -0.2 + 0.05 * gaussian(rng) : 0.5 + 0.03 * gaussian(rng)),
  "success rate of 100 tasks (ties)": (rng) => {
    let s = 0;
    for (let i = 0; i < 100; i++) if (rng.next() < 0.6) s++;
    return s / 100;
  },
};

console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}; identical configurations, ${RUNS} runs per arm, α = 0.05`);
for (const [label, shape] of Object.entries(shapes)) rates(label, (rng) => [Array.from({ length: RUNS }, () => shape(rng)), Array.from({ length: RUNS }, () => shape(rng))]);

// Real runs of one config: what an A/B test of a config against itself sees.
const set = heldOutSet(200);
const t0 = performance.now();
const pool: number[] = [];
for (let i = 0; i < POOL; i++) {
  const seed = `bench-ab/${i}`;
  const r = await runFamily({ family: "supervised", config: {}, parent: parentFor("supervised"), environment: DESK, distribution: DISTRIBUTION, seed, data: expertData(120, `${seed}/data`), heldOut: null, validation: TRAINING_VALIDATION, codeRevision: CODE_REVISION }, 30);
  pool.push(evaluatePolicy(DESK, (r.candidate as unknown as { policy: Policy }).policy, set).meanReward);
}
const mean = pool.reduce((a, b) => a + b, 0) / pool.length;
const sd = Math.sqrt(pool.reduce((a, v) => a + (v - mean) ** 2, 0) / (pool.length - 1));
console.log(`pool: ${POOL} supervised runs (30 updates, 120 demonstrations each), evaluation mean reward ${mean.toFixed(3)} ± ${sd.toFixed(3)} sd, made in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
rates(`real runs (pool of ${POOL})`, (rng) => {
  const order = rng.shuffle([...pool]);
  return [order.slice(0, RUNS), order.slice(RUNS, 2 * RUNS)];
});
