// `npm run bench:trainers`: throughput of the learning core on this machine, single-threaded.
//   environment steps/s  — support-desk steps with a sampling policy (simulation only, and with the
//                           span mapping + trajectory rebuild the runner and trainer add)
//   PPO updates/s        — one update on a batch of 128 episodes with the default config
//   Q-learning updates/s — the same batch; also single TD updates/s inside replay
//   training rounds/s    — collect a batch (episodes → spans → trajectories) and update, repeated
// Each figure is the median of three timed rounds after a warm-up round.
import os from "node:os";
import { simulateEpisode } from "@/server/environments/episode";
import { spansFromEpisode } from "@/server/environments/spans";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { trajectoryFromSpans } from "@/server/environments/trajectory";
import type { Trainer } from "@/server/trainers/algorithm";
import { collectBatch } from "@/server/trainers/loop";
import { actingPolicy, initialPolicy, withEpsilon } from "@/server/trainers/policy";
import { createTrainer, policyKindFor } from "@/server/trainers/trainers";

const env = createSupportDesk();
const dist = findDistribution("v2");
const EPISODES_PER_BATCH = 128;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Runs `fn` for about `ms` milliseconds per round; returns units/s (fn returns units done). */
function rate(ms: number, fn: (round: number) => number): number {
  const rounds: number[] = [];
  for (let r = 0; r < 4; r++) {
    let units = 0;
    const start = performance.now();
    let i = 0;
    while (performance.now() - start < ms) units += fn(r * 1_000_000 + i++);
    if (r > 0) rounds.push(units / ((performance.now() - start) / 1000));
  }
  return median(rounds);
}

const policy = actingPolicy(withEpsilon(initialPolicy("softmax-linear", env), 0.1));
const envSteps = rate(1500, (i) => {
  const task = env.sampleTask(dist, `bench/${i}`);
  return simulateEpisode(env, policy, task, { episodeKey: `b${i}`, seed: `bench/${i}`, options: { toolFailureRate: 0.05 } }).steps.length;
});
const envStepsWithSpans = rate(1500, (i) => {
  const task = env.sampleTask(dist, `bench/${i}`);
  const ep = simulateEpisode(env, policy, task, { episodeKey: `b${i}`, seed: `bench/${i}`, options: { toolFailureRate: 0.05 } });
  trajectoryFromSpans(spansFromEpisode(ep, { rolloutId: "ro-bench", attemptId: `at-${i}`, startTime: 0 }));
  return ep.steps.length;
});

function updateRate(algorithm: "ppo" | "q-learning"): { updatesPerSecond: number; stepsPerBatch: number; figures: Record<string, number> } {
  const parent = initialPolicy(policyKindFor(algorithm), env);
  const batch = collectBatch(env, withEpsilon(parent, 0.3), 0, { distribution: dist, episodesPerUpdate: EPISODES_PER_BATCH, seed: "bench" });
  let trainer: Trainer = createTrainer({ algorithm, config: {}, parent, seed: "bench", environment: env });
  let figures: Record<string, number> = {};
  const stepsPerBatch = batch.trajectories.reduce((s, t) => s + t.steps.length, 0);
  const updatesPerSecond = rate(2000, (i) => {
    // A fresh trainer now and then, so replay buffers stay at a realistic size.
    if (i % 50 === 0) trainer = createTrainer({ algorithm, config: {}, parent, seed: "bench", environment: env });
    figures = trainer.update(batch.trajectories).figures;
    return 1;
  });
  return { updatesPerSecond, stepsPerBatch, figures };
}

const ppo = updateRate("ppo");
const q = updateRate("q-learning");

/** Whole training rounds: collect a batch through spans and back, then update (what a run repeats). */
function roundRate(algorithm: "ppo" | "q-learning"): number {
  const trainer = createTrainer({ algorithm, config: {}, parent: initialPolicy(policyKindFor(algorithm), env), seed: "bench-rounds", environment: env });
  const opts = { distribution: dist, episodesPerUpdate: EPISODES_PER_BATCH, seed: "bench-rounds", options: { toolFailureRate: 0.05 } };
  return rate(2000, () => {
    trainer.update(collectBatch(env, trainer.currentPolicy(), trainer.updates, opts).trajectories);
    return 1;
  });
}
const ppoRounds = roundRate("ppo");
const qRounds = roundRate("q-learning");
const tdPerSecond = q.updatesPerSecond * (q.figures.updatesApplied ?? 0);

const rows: [string, string][] = [
  ["machine", `${os.cpus()[0]?.model ?? "?"} × ${os.cpus().length}, Node ${process.version}`],
  ["environment steps/s (simulation)", envSteps.toFixed(0)],
  ["environment steps/s (+ spans → trajectory)", envStepsWithSpans.toFixed(0)],
  [`PPO updates/s (${EPISODES_PER_BATCH} episodes ≈ ${ppo.stepsPerBatch} steps, 4 epochs, minibatch 256)`, ppo.updatesPerSecond.toFixed(2)],
  [`Q-learning updates/s (same batch, replay ratio 4 → ${q.figures.updatesApplied} TD updates)`, q.updatesPerSecond.toFixed(2)],
  ["Q-learning TD updates/s inside replay", tdPerSecond.toFixed(0)],
  [`PPO training rounds/s (collect ${EPISODES_PER_BATCH} episodes via spans + update)`, ppoRounds.toFixed(2)],
  [`Q-learning training rounds/s (collect ${EPISODES_PER_BATCH} episodes via spans + update)`, qRounds.toFixed(2)],
  ["load average while measuring (1 min)", os.loadavg()[0]!.toFixed(2)],
];
const width = Math.max(...rows.map(([k]) => k.length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
console.log(JSON.stringify({ envSteps, envStepsWithSpans, ppoUpdatesPerSecond: ppo.updatesPerSecond, qUpdatesPerSecond: q.updatesPerSecond, qTdUpdatesPerSecond: tdPerSecond, ppoRounds, qRounds }));
