// `npm run bench:collect` — episodes per second when a neural family's batch is collected by runner processes
// through the store (as a trainer worker's PPO-MLP run collects it), with 1, 2 and 4 runners, beside the same
// batch collected in this process. The store server (`scripts/store/serve.ts`) and every runner
// (`scripts/runner.ts`, OTLP) are real processes on a fresh SQLite database; this process enqueues each batch
// into the same database (`collectThroughStore`, the worker's own call) and waits for its trajectories. The
// policy is the desk's untrained MLP actor (64-64 tanh) with ε 0.2, as PPO-MLP's first update acts.
// Options: --runners 1,2,4 --episodes 256 --rounds 2 --port 3330
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { createApiKey } from "@/server/auth/api-keys";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { findDistribution, createSupportDesk } from "@/server/environments/support-desk";
import { createStore } from "@/server/store";
import { collectBatch } from "@/server/trainers/loop";
import { initialPolicy, withEpsilon, type MlpPolicy } from "@/server/trainers/policy";
import { collectThroughStore } from "@/server/training/collect";
import { freshSqlite, startServer, stopServers } from "./store/servers";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const COUNTS = arg("runners", "1,2,4").split(",").map(Number);
const EPISODES = Number(arg("episodes", "256"));
const ROUNDS = Math.max(1, Number(arg("rounds", "2")));
const PORT = Number(arg("port", "3330"));

const env = createSupportDesk();
const policy = withEpsilon(initialPolicy("mlp-softmax", env) as MlpPolicy, 0.2);
const dist = findDistribution("v2");
const collect = { toolFailureRate: 0.05, maxAttempts: 3 };

/** In this process, as the family's `step()` collects (the reference the runners are compared with). */
function inProcess(): number {
  const t0 = performance.now();
  collectBatch(env, policy, 0, { distribution: dist, episodesPerUpdate: EPISODES, seed: "bench-collect", options: { toolFailureRate: collect.toolFailureRate }, maxAttempts: collect.maxAttempts });
  return EPISODES / ((performance.now() - t0) / 1000);
}

function startRunner(url: string, key: string, id: string): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "scripts/runner.ts", "--url", url, "--key", key, "--id", id, "--quiet"], { stdio: ["ignore", "ignore", "inherit"] });
}

const db = await freshSqlite();
const database = await openDatabase(resolveDbTarget(db.url));
const store = createStore(database, { scanDebounceMs: 0 });
const runnerKey = (await createApiKey(database.db, { name: "bench-runners", role: "runner" })).token;
const server = await startServer("bare", db.url, PORT, []);
const url = `http://127.0.0.1:${PORT}`;
const rows: string[] = [];
try {
  const local = Array.from({ length: ROUNDS }, inProcess);
  rows.push(`| in this process (the family's own step) | ${Math.round(Math.max(...local))} | — |`);
  let update = 0;
  for (const n of COUNTS) {
    const runners = Array.from({ length: n }, (_, i) => startRunner(url, runnerKey, `bench-runner-${n}-${i}`));
    try {
      const rates: number[] = [];
      let failed = 0;
      for (let r = 0; r <= ROUNDS; r++) {
        const t0 = performance.now();
        const batch = await collectThroughStore(store, { runId: "bench-collect", update: update++, environment: env.id, distribution: dist.version, seed: "bench-collect", episodes: EPISODES, ...collect, policy, expectedFamilies: ["agent.step", "reward"] }, async () => true, 20);
        if (!batch) throw new Error("collection was interrupted");
        if (r > 0) rates.push(EPISODES / ((performance.now() - t0) / 1000)); // round 0 warms the runners up (tsx start, first rollouts)
        failed += batch.failed;
      }
      rows.push(`| ${n} runner process${n === 1 ? "" : "es"} through the store | ${Math.round(Math.max(...rates))} (${rates.map(Math.round).join(", ")}) | ${failed} |`);
    } finally {
      await stopServers(runners);
    }
  }
} finally {
  await stopServers([server]);
  await store.close();
  await database.close();
  await db.drop();
}

console.log(`\ncollect bench — node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}; batches of ${EPISODES} desk episodes (v2, tool failure rate ${collect.toolFailureRate}, up to ${collect.maxAttempts} attempts), PPO-MLP's untrained actor with ε 0.2; best of ${ROUNDS} rounds after a warm-up round`);
console.log("| collected by | episodes/s (rounds) | failed rollouts |");
console.log("| --- | --- | --- |");
for (const r of rows) console.log(r);
