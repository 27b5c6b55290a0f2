// `npm run bench:gate-run` — one admission gate run through runners, as production does it: 60 held-out cases × 2
// sides + 20 canary tasks + 5 rollback probes, served by 2 desk runner processes (scripts/runner.ts) and checked by
// the verifier process (scripts/verifier.ts), all over HTTP against the production listener (store + gate API)
// with the gate's orchestrator stepping in this process, as it does in the server's. Prints the wall time per
// phase and Lightgate's share of it (the goal is under 10 %), two ways:
//   - waiting on Lightgate: the wall time during which no runner or verifier had anything to do — no gate
//     rollout queued or running, no finished canary outcome unverified — so the run waited on Lightgate alone
//     (starting, judging, moving phases, waking late). A rollout's time in the queue counts as the runners' (they
//     poll for work, as Agent Lightning runners do), and so does the store's serving of their calls. The settle
//     windows (the promotion policy's `settleSeconds` after each stage's last rollout ended, during which the gate
//     waits for late spans on purpose) are the policy's, reported apart.
//   - steps' elapsed time: the sum over every orchestrator step, start to end. An upper bound: steps overlap the
//     runners' work, and in this process (as in the server's) a step's awaits also wait while the store serves
//     runners' calls on the same event loop.
// and this process's CPU time over the run (store serving and orchestrating together) against the wall.
//   npm run bench:gate-run [-- --runs 3 --only sqlite|postgresql]
import os from "node:os";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createApiKey } from "../server/auth/api-keys";
import { openDatabase, type Database } from "../server/db/client";
import { resolveDbTarget } from "../server/db/config";
import { deployMigrations } from "../server/db/migrate";
import { publishDeskGateDatasets } from "../server/desk/gate-datasets";
import { publishDeskRegistry } from "../server/desk/registry";
import { serveGateApi } from "../server/gate-api/http";
import { createLightgateServer } from "../server/process/server-listener";
import { settleSecondsOf } from "../server/gate/policy";
import { orchestrateGates, requestGateRun } from "../server/receipts/gate-queue";
import { currentPolicy } from "../server/receipts/registries";
import { createStore } from "../server/store";
import { createStoreHandler } from "../server/store/http/handler";
import { DESK_ALGORITHM, registerDeskCandidate } from "../tests/helpers/desk-candidate";
import { candidatePolicy, parentPolicy } from "../tests/helpers/gate-rollouts";
import { postgresAnswers, throwawayDatabase } from "../tests/hostile/server";
import { startScript } from "../tests/helpers/script-process";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const RUNS = Number(arg("runs", "3"));
const ONLY = arg("only", "");
const AGENT = "helpdesk-bench";
const SETUP = { kind: "system" as const, id: "bench", name: "bench", grants: [] };


type Phases = Record<string, number>;

async function benchOnce(dialect: "sqlite" | "postgresql", round: number) {
  const throwaway = await throwawayDatabase(dialect, `gaterun${round}`);
  const target = resolveDbTarget(throwaway.url);
  await deployMigrations(target);
  const database = await openDatabase(target);
  const store = createStore(database, { scanDebounceMs: 1_000 });
  const notNext = (_req: http.IncomingMessage, res: http.ServerResponse) => void res.writeHead(404).end();
  const server = createLightgateServer(createStoreHandler({ store, db: database.db, allowAnonymous: false }), notNext, { gateApi: (r) => serveGateApi(database, r) });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = new AbortController();
  const helpers = [];
  try {
    await publishDeskRegistry(database, { agent: AGENT, distribution: "v2", actor: SETUP });
    const exam = await publishDeskGateDatasets(database, { agent: AGENT, distribution: "v2", heldOutCases: 60, canaryCases: 20, actor: SETUP });
    // A candidate trained on demonstrations against the untrained parent: it stays inside the desk's boundary.
    const [parent, candidate] = [parentPolicy(), await candidatePolicy()];
    const registered = await registerDeskCandidate({ database, store, agent: AGENT, datasets: { heldOut: exam.held_out.datasetId, canary: exam.canary.datasetId } }, { name: `bench${round}`, parent, candidate });
    const runnerKey = (await createApiKey(database.db, { name: "bench runners", role: "runner" })).token;
    const verifierKey = (await createApiKey(database.db, { name: "bench verifier", role: "verifier" })).token;
    const env = { ...process.env, DATABASE_URL: throwaway.url, LIGHTGATE_DESK_TICKETS_URL: throwaway.url };
    for (const i of [1, 2]) helpers.push(startScript("scripts/runner.ts", ["--url", url, "--id", `bench-runner-${i}`, "--quiet"], { ...env, LIGHTGATE_RUNNER_KEY: runnerKey }));
    helpers.push(startScript("scripts/verifier.ts", ["--url", url, "--quiet"], { ...env, LIGHTGATE_VERIFIER_KEY: verifierKey }));
    await new Promise((r) => setTimeout(r, 3_000)); // the helper processes start (tsx) before the clock does

    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const run = await requestGateRun(database, { candidateId: registered.candidateId, actor: DESK_ALGORITHM, deadlineSeconds: 600 });
    // The server's cadence (scripts/serve.ts passes none): the 500 ms poll, woken sooner by the store's news.
    void orchestrateGates(database, stop.signal, { owner: "bench" });
    const phases: Phases = {};
    let phase = "queued";
    let since = t0;
    for (;;) {
      const row = await database.db.gateRun.findUniqueOrThrow({ where: { id: run.id } });
      if (row.phase !== phase) {
        const now = performance.now();
        phases[phase] = (phases[phase] ?? 0) + (now - since);
        phase = row.phase;
        since = now;
      }
      if (row.status === "done" || row.status === "failed") {
        const wall = performance.now() - t0;
        const cpuUsed = process.cpuUsage(cpu0);
        const tasks = await database.db.gateRunTask.groupBy({ by: ["phase"], _count: true });
        const waited = await waitingOnLightgate(database, run.id);
        return { wall, orchestration: row.orchestrationMs, waited, cpu: (cpuUsed.user + cpuUsed.system) / 1000, phases, status: row.status, error: row.error, tasks: Object.fromEntries(tasks.map((t) => [t.phase, t._count])) };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    stop.abort();
    await Promise.all(helpers.map((h) => h.stop()));
    server.closeAllConnections();
    server.close();
    await store.close();
    await database.close();
    await throwaway.drop();
  }
}

/**
 * From the records: the run's span (requested → finished) less the union of the intervals in which a runner or
 * the verifier had work — each gate rollout from its enqueue to its end, each canary outcome from its end to its
 * verification, and each stage's settle window after its last rollout ended (the policy's wait, returned as
 * `settle`). What is left is time the run waited on Lightgate alone.
 */
async function waitingOnLightgate(database: Database, runId: string) {
  const run = await database.db.gateRun.findUniqueOrThrow({ where: { id: runId } });
  const tasks = await database.db.gateRunTask.findMany({ where: { gateRunId: runId }, select: { rolloutId: true, judgedAt: true, phase: true } });
  const ids = tasks.map((t) => t.rolloutId);
  const judged = new Map(tasks.map((t) => [t.rolloutId, t.judgedAt]));
  const rollouts = await database.db.storeRollout.findMany({ where: { rolloutId: { in: ids } }, select: { rolloutId: true, startTime: true, endTime: true } });
  const verifications = await database.db.gateVerification.findMany({ where: { rolloutId: { in: ids } }, select: { rolloutId: true, createdAt: true } });
  const ended = new Map<string, number>();
  const busy: [number, number][] = [];
  for (const r of rollouts) {
    const end = r.endTime !== null ? r.endTime * 1000 : (judged.get(r.rolloutId)?.getTime() ?? r.startTime * 1000);
    ended.set(r.rolloutId, end);
    busy.push([r.startTime * 1000, end]);
  }
  for (const v of verifications) busy.push([ended.get(v.rolloutId) ?? v.createdAt.getTime(), v.createdAt.getTime()]);
  const from = run.requestedAt.getTime();
  const to = run.finishedAt!.getTime();
  const candidate = await database.db.candidate.findUniqueOrThrow({ where: { id: run.candidateId }, select: { agent: true } });
  const settleMs = settleSecondsOf(await currentPolicy(database.db, candidate.agent)) * 1000;
  let settle = 0;
  for (const stage of [["locked_gate", "rollback"], ["canary", "canary_stage"]]) {
    const ends = tasks.filter((t) => stage.includes(t.phase)).map((t) => ended.get(t.rolloutId) ?? 0);
    if (!ends.length) continue;
    const last = Math.max(...ends);
    busy.push([last, last + settleMs]);
    settle += Math.max(0, Math.min(last + settleMs, to) - last);
  }
  busy.sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = from;
  for (const [a, b] of busy) {
    const start = Math.max(a, reach);
    const end = Math.min(b, to);
    if (end > start) covered += end - start;
    reach = Math.max(reach, end);
  }
  return { span: to - from, waiting: to - from - covered, settle };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(ms < 1000 ? 2 : 1)} s`;
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;

async function main() {
  console.log(`gate-run bench: 60 held-out × 2 sides + 20 canary + 5 probes, 2 desk runner processes + the verifier (${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`);
  for (const dialect of ["sqlite", "postgresql"] as const) {
    if (ONLY && ONLY !== dialect) continue;
    if (dialect === "postgresql" && !(await postgresAnswers())) {
      console.log("postgresql: skipped — no server answers at 127.0.0.1:5432");
      continue;
    }
    const results = [];
    for (let r = 0; r < RUNS; r++) {
      const res = await benchOnce(dialect, r);
      results.push(res);
      const phases = Object.entries(res.phases).map(([p, ms]) => `${p} ${s(ms)}`).join(", ");
      console.log(`${dialect} run ${r + 1}: ${res.status}${res.error ? ` (${res.error})` : ""} in ${s(res.wall)} — ${phases}; rollouts ${JSON.stringify(res.tasks)}; waiting on Lightgate ${s(res.waited.waiting)} = ${pct(res.waited.waiting, res.waited.span)} (settle windows ${s(res.waited.settle)}, the policy's, apart); steps' elapsed ${s(res.orchestration)} = ${pct(res.orchestration, res.wall)}; this process's CPU ${s(res.cpu)} = ${pct(res.cpu, res.wall)} (load ${os.loadavg()[0]!.toFixed(1)})`);
    }
    const walls = results.map((r) => r.wall);
    const range = (xs: number[], f: (x: number) => string) => `${f(median(xs))} median (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
    const share = (x: number) => `${x.toFixed(1)} %`;
    console.log(
      `${dialect}: wall ${range(walls, s)}; waiting on Lightgate ${range(results.map((r) => (100 * r.waited.waiting) / r.waited.span), share)}; ` +
        `steps' elapsed ${range(results.map((r) => (100 * r.orchestration) / r.wall), share)}; this process's CPU ${range(results.map((r) => (100 * r.cpu) / r.wall), share)} of wall (load ${os.loadavg()[0]!.toFixed(1)})`,
    );
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
