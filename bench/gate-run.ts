// `npm run bench:gate-run` — one admission gate run through runners, as production does it: 60 held-out cases × 2
// sides + 20 canary tasks + 5 rollback probes, served by 2 desk runner processes (scripts/runner.ts) and checked by
// the verifier process (scripts/verifier.ts), all over HTTP against the production listener (store + gate API)
// with the gate's orchestrator stepping in this process, as it does in the server's. Prints the wall time per
// phase, and the share of it spent in Lightgate's own orchestration (every step's elapsed time; the rest is
// runners, verifier and the HTTP between) — the goal is under 10 % — and, steadier under load, this process's
// CPU time while steps ran (an upper bound on theirs: the store's serving meanwhile counts too).
//   npm run bench:gate-run [-- --runs 3 --only sqlite|postgresql]
import os from "node:os";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createApiKey } from "../server/auth/api-keys";
import { openDatabase } from "../server/db/client";
import { resolveDbTarget } from "../server/db/config";
import { deployMigrations } from "../server/db/migrate";
import { publishDeskGateDatasets } from "../server/desk/gate-datasets";
import { publishDeskRegistry } from "../server/desk/registry";
import { serveGateApi } from "../server/gate-api/http";
import { createLightgateServer } from "../server/http/server-listener";
import { orchestrateGates, requestGateRun } from "../server/receipts/gate-queue";
import { stepCpuMs } from "../server/receipts/gate-run/step";
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
        const tasks = await database.db.gateRunTask.groupBy({ by: ["phase"], _count: true });
        return { wall, orchestration: row.orchestrationMs, cpu: stepCpuMs.get(run.id) ?? 0, phases, status: row.status, error: row.error, tasks: Object.fromEntries(tasks.map((t) => [t.phase, t._count])) };
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

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
      console.log(`${dialect} run ${r + 1}: ${res.status}${res.error ? ` (${res.error})` : ""} in ${s(res.wall)} — ${phases}; rollouts ${JSON.stringify(res.tasks)}; orchestration ${s(res.orchestration)} = ${((100 * res.orchestration) / res.wall).toFixed(1)} %, CPU while stepping ${s(res.cpu)} = ${((100 * res.cpu) / res.wall).toFixed(1)} % (load ${os.loadavg()[0]!.toFixed(1)})`);
    }
    const walls = results.map((r) => r.wall);
    const shares = results.map((r) => (100 * r.orchestration) / r.wall);
    const cpuShares = results.map((r) => (100 * r.cpu) / r.wall);
    console.log(`${dialect}: wall ${s(median(walls))} median (${s(Math.min(...walls))}–${s(Math.max(...walls))}); orchestration share ${median(shares).toFixed(1)} % median (${Math.min(...shares).toFixed(1)}–${Math.max(...shares).toFixed(1)} %); CPU while stepping ${median(cpuShares).toFixed(1)} % of wall median (load ${os.loadavg()[0]!.toFixed(1)})`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
