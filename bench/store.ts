// `npm run bench:store` — LightningStore throughput, every figure measured by this project's own load client
// (node:http, bench/store/http.ts) with the same payloads, so ratios between servers compare the same work.
//
// Servers it starts itself (fresh database per run): the production server (scripts/serve.ts, what `npm start`
// runs) on SQLite and on PostgreSQL when one answers. Any other LightningStore server — e.g. the Python
// reference `python -m agentlightning.cli.store --port 4747` — with --url. Prints enqueue/s (batches of 100),
// dequeue+complete cycles/s (8 workers), REST spans/s (16 in flight), OTLP spans/s (100 per request) and the
// 1,000-span query's p50/p99; per phase the client's CPU, the server's CPU (summed over its processes) and
// the load average, so a reader sees who was the bottleneck.
//
// Options: --url URL[,URL…] --key KEY --server-pid PID[,PID…]   (measure running servers; no database work)
//          --only sqlite|postgresql --server lightgate|next|bare --processes 1,2,3 (PostgreSQL: n processes
//          on one database, workers spread over them) --runs 3 --seconds 6 --port 3310
//          --phases enqueue,cycles,rest,otlp,query --server-node "--cpu-prof --cpu-prof-dir=/tmp/prof"
//          --sustain 600 (instead of the phases: OTLP at the maximum rate, RSS every second, database growth)
//          --reference DIR (Agent Lightning's own `agl store`, built by ../shared/tools/agl-reference/setup.sh into
//          DIR: a fresh one per round, measured in the same run, rounds alternating between the servers)
//          --retention 60 (with --sustain: the servers' retention age, LIGHTGATE_RETENTION_SECONDS)
// Production (`lightgate`, `next`) needs `npx next build` first.
import type { ChildProcess } from "node:child_process";
import os from "node:os";
import { Target } from "./store/http";
import { PHASES, runPhases, type BenchResult } from "./store/phases";
import { printTables, type Series } from "./store/report";
import { startReference } from "./store/reference";
import { databaseBytes, freshPostgres, freshSqlite, startServer, stopServers, type FreshDatabase, type ServerKind } from "./store/servers";
import { printSustain, sustain } from "./store/sustain";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const list = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);
const PORT = Number(arg("port", "3310"));
const SECONDS = Number(arg("seconds", "6"));
const RUNS = Math.max(1, Number(arg("runs", "1")));
const ONLY = arg("only", "");
const SERVER = arg("server", "lightgate") as ServerKind;
const PHASE_SET = new Set(list(arg("phases", PHASES.join(","))));
const SERVER_NODE = arg("server-node", "").split(" ").filter(Boolean);
const PROCESSES = list(arg("processes", "1")).map(Number);
const URLS = list(arg("url", ""));
/** --reference DIR: Agent Lightning's own store server (DIR/run-store.sh), measured in the same run. */
const REFERENCE = arg("reference", "");
/** --sustain SECONDS: instead of the phases, OTLP at the maximum rate with RSS sampled every second. */
const SUSTAIN = Number(arg("sustain", "0"));
/** --retention SECONDS: the servers delete finished rollouts older than this (LIGHTGATE_RETENTION_SECONDS). */
const RETENTION = Number(arg("retention", "0"));
const CLIENT = `this project's Node client (undici, ${os.cpus().length} cores)`;
const KIND_LABEL = { lightgate: "production server", next: "plain next start", bare: "store server (store:serve)" }[SERVER];

if (!["lightgate", "next", "bare"].includes(SERVER)) throw new Error(`--server: lightgate, next or bare, not ${SERVER}`);

async function benchUrls(): Promise<Series> {
  const key = arg("key", "");
  const pids = list(arg("server-pid", "")).map(Number);
  const auth: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  const runs: BenchResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    const targets = URLS.map((u) => new Target(u, auth));
    try {
      runs.push(await runPhases(targets, { seconds: SECONDS, phases: PHASE_SET, serverPids: pids }));
    } finally {
      for (const t of targets) t.close();
    }
    console.log(`run ${i + 1}/${RUNS} done (load average ${os.loadavg()[0]!.toFixed(1)})`);
  }
  return { label: `${URLS.join(", ")}${pids.length ? "" : " (server CPU unknown: no --server-pid)"}`, client: CLIENT, runs };
}

/** One run: a fresh database, `n` server processes on it, the phases, everything torn down. */
async function benchOwn(fresh: () => Promise<FreshDatabase>, n: number): Promise<{ label: string; result: BenchResult }> {
  const db = await fresh();
  const children: ChildProcess[] = [];
  try {
    const env: Record<string, string> = RETENTION > 0 ? { LIGHTGATE_RETENTION_SECONDS: String(RETENTION) } : {};
    for (let i = 0; i < n; i++) children.push(await startServer(SERVER, db.url, PORT + i, SERVER_NODE, env));
    const targets = children.map((_, i) => new Target(`http://127.0.0.1:${PORT + i}`, { Authorization: `Bearer ${db.token}` }));
    try {
      if (SUSTAIN > 0) {
        printSustain(`${KIND_LABEL}${n > 1 ? ` ×${n} processes` : ""} · ${db.label}`, await sustain(targets, SUSTAIN, children.map((c) => c.pid!), db.url, () => databaseBytes(db.url)), RETENTION);
        return { label: "", result: {} };
      }
      const result = await runPhases(targets, { seconds: SECONDS, phases: PHASE_SET, serverPids: children.map((c) => c.pid!), dbPids: db.backends });
      return { label: `${KIND_LABEL}${n > 1 ? ` ×${n} processes` : ""} · ${db.label}`, result };
    } finally {
      for (const t of targets) t.close();
    }
  } finally {
    await stopServers(children);
    await db.drop();
  }
}

/** One round of the reference: a fresh `agl store` (in memory), the phases, stopped. */
async function benchReference(): Promise<{ label: string; result: BenchResult }> {
  const ref = await startReference(REFERENCE, PORT + 50);
  const target = new Target(ref.url, {});
  try {
    const result = await runPhases([target], { seconds: SECONDS, phases: PHASE_SET, serverPids: ref.pids() });
    return { label: `Agent Lightning ${ref.version} \`agl store\` (in memory)`, result };
  } finally {
    target.close();
    await ref.stop();
  }
}

/**
 * Every configuration once per round, rounds repeated --runs times: the servers alternate, so a slow stretch of
 * the machine falls on all of them alike and the ratios between them hold.
 */
async function rounds(configs: { name: string; run: () => Promise<{ label: string; result: BenchResult }> }[]): Promise<Series[]> {
  const out = configs.map(() => ({ label: "", client: CLIENT, runs: [] as BenchResult[] }));
  for (let i = 0; i < RUNS; i++) {
    for (const [k, c] of configs.entries()) {
      try {
        const one = await c.run();
        out[k]!.label = one.label;
        out[k]!.runs.push(one.result);
        console.log(`${one.label}: run ${i + 1}/${RUNS} done (load average ${os.loadavg()[0]!.toFixed(1)})`);
      } catch (e) {
        console.log(`${c.name} skipped: ${(e as Error).message}`);
      }
    }
  }
  return out.filter((s) => s.runs.length > 0);
}

const series: Series[] = [];
if (URLS.length) series.push(await benchUrls());
else {
  const configs: { name: string; run: () => Promise<{ label: string; result: BenchResult }> }[] = [];
  if (REFERENCE) configs.push({ name: "reference", run: benchReference });
  if (ONLY !== "postgresql") configs.push({ name: "SQLite", run: () => benchOwn(freshSqlite, 1) });
  if (ONLY !== "sqlite") for (const n of PROCESSES) configs.push({ name: `PostgreSQL ×${n}`, run: () => benchOwn(freshPostgres, n) });
  series.push(...(await rounds(configs)));
}
if (SUSTAIN <= 0) printTables(series, SECONDS);
process.exit(0);
