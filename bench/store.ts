// `npm run bench:store` — store throughput against the production server (scripts/serve.ts, as `npm start` runs it), on SQLite (the durable
// default: WAL, synchronous=NORMAL) and on PostgreSQL when one answers. Prints enqueue/s (batches of 100),
// dequeue+complete cycles/s (8 workers), REST spans/s (concurrency 16), OTLP spans/s (100 per request)
// and query_spans p50/p99 on a rollout with 1,000 spans. Needs `npx next build` first (not with --server bare).
// Options: --port 3310 --seconds 6 --only sqlite|postgresql --server lightgate|next|bare
//          --phases enqueue,cycles,rest,otlp,query --server-node "--cpu-prof --cpu-prof-dir=/tmp/prof"
// BENCH_VERBOSE=1 prints each phase's CPU use (load generator and server), to tell who was the bottleneck.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createApiKey } from "../server/auth/api-keys";
import { openDatabase } from "../server/db/client";
import { resolveDbTarget } from "../server/db/config";
import { deployMigrations } from "../server/db/migrate";
import { encodeTraceRequest } from "../server/store/otlp/decode";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const PORT = Number(arg("port", "3310"));
const SECONDS = Number(arg("seconds", "6"));
const ONLY = arg("only", "");
/**
 * "lightgate" (default: scripts/serve.ts, what `npm start` runs — store API on its fast path beside Next.js),
 * "next" (plain `next start`: the same routes through Next's router) or "bare" (the store handler alone).
 */
const SERVER = arg("server", "lightgate");
/** Comma-separated subset of enqueue,cycles,rest,otlp,query (profiling one phase); default all. */
const PHASES = new Set(arg("phases", "enqueue,cycles,rest,otlp,query").split(","));
/** Extra node flags for the server process, e.g. `--server-node "--cpu-prof --cpu-prof-dir=/tmp/prof"`. */
const SERVER_NODE = arg("server-node", "").split(" ").filter(Boolean);

/**
 * The load generator's HTTP: node:http over pooled keep-alive connections, as the Python client's aiohttp
 * session does. Not fetch: on these 2-core machines Node 20's fetch spent ~1.4 ms of CPU per request
 * (node:http ~0.18 ms), so a fetch client saturated its core near 1,000 requests/s whatever the server did.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
function request(method: string, p: string, body: Buffer | string | null, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const payload = body === null ? null : typeof body === "string" ? Buffer.from(body) : body;
    const req = http.request({ host: "127.0.0.1", port: PORT, path: p, method, agent, headers: payload ? { ...headers, "content-length": String(payload.length) } : headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload ?? undefined);
  });
}

let auth: Record<string, string> = {};
async function api<T = unknown>(p: string, body: unknown, expect = [200, 201]): Promise<T> {
  const res = await request("POST", `/v1/agl${p}`, JSON.stringify(body), { ...auth, "content-type": "application/json" });
  if (!expect.includes(res.status)) throw new Error(`${p} → ${res.status} ${res.body.toString().slice(0, 200)}`);
  return JSON.parse(res.body.toString()) as T;
}

let serverPid = 0;
/** The server process's CPU time so far (Linux /proc; 0 elsewhere). */
function serverCpuSeconds(): number {
  try {
    const fields = fs.readFileSync(`/proc/${serverPid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
  } catch {
    return 0;
  }
}

/** Runs `workers` loops of `step` for SECONDS; returns units per second (step returns units done). */
async function measure(workers: number, step: (w: number) => Promise<number>): Promise<number> {
  const end = Date.now() + SECONDS * 1000;
  let units = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = serverCpuSeconds();
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    while (Date.now() < end) {
      const done = await step(w); // not `units += await …`: that reads `units` before the await and loses updates
      units += done;
    }
  }));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (process.env.BENCH_VERBOSE) {
    const server = ((serverCpuSeconds() - server0) / elapsed) * 100;
    console.log(`  CPU: load generator ${(((cpu.user + cpu.system) / 1e6 / elapsed) * 100).toFixed(0)}%, server ${server.toFixed(0)}% of one core`);
  }
  return units / elapsed;
}

const attrs = (i: number) => ({ "gen_ai.prompt.0.content": "x".repeat(600), "gen_ai.completion.0.content": "y".repeat(200), index: i, "agentlightning.operation.name": "llm" });
const hex = (n: number, w: number) => n.toString(16).padStart(w, "0");
let spanCounter = 1;
function span(rid: string, aid: string, seq: number) {
  const n = spanCounter++;
  return {
    rollout_id: rid, attempt_id: aid, sequence_id: seq, trace_id: hex(n, 32), span_id: hex(n, 16), parent_id: null, name: "openai.chat.completion",
    status: { status_code: "OK", description: null }, attributes: attrs(n), events: [], links: [], start_time: Date.now() / 1000, end_time: Date.now() / 1000 + 0.1,
    context: { trace_id: hex(n, 32), span_id: hex(n, 16), is_remote: false, trace_state: {} }, parent: null, resource: { attributes: { "service.name": "bench" }, schema_url: "" },
  };
}

function otlpBody(rid: string, aid: string, count: number): Buffer {
  const kv = (key: string, v: string | number) => ({ key, value: typeof v === "string" ? { string_value: v } : { int_value: v } });
  const spans = Array.from({ length: count }, () => {
    const n = spanCounter++;
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    return {
      trace_id: Buffer.from(hex(n, 32), "hex"), span_id: Buffer.from(hex(n, 16), "hex"), name: "openai.chat.completion", kind: 3,
      start_time_unix_nano: nowNs.toString(), end_time_unix_nano: (nowNs + 100_000_000n).toString(),
      attributes: Object.entries(attrs(n)).map(([k, v]) => kv(k, v)), status: { code: 1 },
    };
  });
  return Buffer.from(encodeTraceRequest({ resource_spans: [{ resource: { attributes: [kv("agentlightning.rollout_id", rid), kv("agentlightning.attempt_id", aid)] }, scope_spans: [{ spans }] }] }));
}

function startServer(databaseUrl: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const [cmd, args] =
      SERVER === "bare"
        ? [process.execPath, [...SERVER_NODE, "--import", "tsx", "scripts/store/serve.ts", "--port", String(PORT)]]
        : SERVER === "next"
          ? [path.join("node_modules", ".bin", "next"), ["start", "-p", String(PORT), "-H", "127.0.0.1"]]
          : [process.execPath, [...SERVER_NODE, "--import", "tsx", "scripts/serve.ts"]];
    const child = spawn(cmd, args, {
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LIGHTGATE_DEMO: "0", PORT: String(PORT), HOSTNAME: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/Ready|started server|Local:|ready http/i.test(out)) resolve(child);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => reject(new Error(`server exited (${code}): ${out.slice(-500)}`)));
  });
}

async function benchOne(label: string, databaseUrl: string) {
  const target = resolveDbTarget(databaseUrl);
  await deployMigrations(target);
  const database = await openDatabase(target);
  auth = { Authorization: `Bearer ${(await createApiKey(database.db, { name: "bench", role: "algorithm" })).token}` };
  await database.close();
  const server = await startServer(target.url);
  serverPid = server.pid ?? 0;
  try {
    for (let i = 0; i < 50; i++) await request("GET", "/v1/agl/health", null, {}); // warm up the route
    const batch = Array.from({ length: 100 }, (_, i) => ({ input: { task: i, prompt: "solve " + i }, mode: "train", config: { max_attempts: 1 } }));
    await api("/queues/rollouts/enqueue", { rollouts: batch });
    const phase = (name: string, run: () => Promise<number>) => (PHASES.has(name) ? run() : Promise.resolve(NaN));
    const enqueue = await phase("enqueue", () => measure(4, async () => (await api<unknown[]>("/queues/rollouts/enqueue", { rollouts: batch })).length));
    if (!PHASES.has("enqueue")) for (let i = 0; i < 100; i++) await api("/queues/rollouts/enqueue", { rollouts: batch }); // work for the cycles
    const cycles = await phase("cycles", () => measure(8, async (w) => {
      const claimed = await api<{ rollout_id: string; attempt: { attempt_id: string } }[]>("/queues/rollouts/dequeue", { limit: 1, worker_id: `Worker-${w}` });
      if (!claimed.length) return 0;
      await api(`/rollouts/${claimed[0]!.rollout_id}/attempts/${claimed[0]!.attempt.attempt_id}`, { status: "succeeded" });
      return 1;
    }));
    const targets = await Promise.all(Array.from({ length: 16 }, () => api<{ rollout_id: string; attempt: { attempt_id: string } }>("/rollouts", { input: "spans" })));
    const seqs = new Array(16).fill(0);
    const restSpans = await phase("rest", () => measure(16, async (w) => {
      const t = targets[w]!;
      await api("/spans", span(t.rollout_id, t.attempt.attempt_id, ++seqs[w]));
      return 1;
    }));
    const otlp = await phase("otlp", () => measure(4, async (w) => {
      const t = targets[w]!;
      const res = await request("POST", "/v1/traces", otlpBody(t.rollout_id, t.attempt.attempt_id, 100), { ...auth, "content-type": "application/x-protobuf" });
      if (res.status !== 200) throw new Error(`otlp ${res.status} ${res.body.toString()}`);
      return 100;
    }));
    const q = await api<{ rollout_id: string; attempt: { attempt_id: string } }>("/rollouts", { input: "query" });
    for (let i = 0; i < 10; i++) await api("/spans/next", { rollout_id: q.rollout_id, attempt_id: q.attempt.attempt_id });
    for (let i = 0; i < 1000; i += 100) {
      const res = await request("POST", "/v1/traces", otlpBody(q.rollout_id, q.attempt.attempt_id, 100), { ...auth, "content-type": "application/x-protobuf" });
      if (res.status !== 200) throw new Error(`otlp seed ${res.status}`);
    }
    // Latency is request sent → whole response (1.46 MB) received. Decoding it is the client's own work,
    // the same whichever server answered, so it is timed in a second loop and reported beside the figure
    // (decoding inside the first loop would also leave its garbage to be collected during the next request).
    const query = JSON.stringify({ rollout_id: q.rollout_id, limit: -1, offset: 0, filter_logic: "and", sort_by: "sequence_id", sort_order: "asc" });
    const search = () => request("POST", "/v1/agl/spans/search", query, { ...auth, "content-type": "application/json" });
    const decode = (res: { status: number; body: Buffer }) => {
      const page = JSON.parse(res.body.toString()) as { items: unknown[] };
      if (res.status !== 200 || page.items.length !== 1000) throw new Error(`query returned ${res.status} with ${page.items.length} spans`);
    };
    const expected = await search();
    decode(expected);
    const times: number[] = [];
    for (let i = 0; i < (PHASES.has("query") ? 220 : 21); i++) {
      const t0 = performance.now();
      const res = await search();
      if (i >= 20) times.push(performance.now() - t0);
      if (res.status !== 200 || !res.body.equals(expected.body)) throw new Error(`query ${i} answered ${res.status} with different spans`);
    }
    const decoded: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      decode(await search());
      decoded.push(performance.now() - t0);
    }
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
    return { label, enqueue, cycles, restSpans, otlp, p50: pct(times, 50), p99: pct(times, 99), p50Decoded: pct(decoded, 50) };
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
  }
}

const results = [];
if (ONLY !== "postgresql") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-bench-"));
  results.push(await benchOne("SQLite (WAL, synchronous=NORMAL)", `file:${path.join(dir, "bench.db")}`));
  fs.rmSync(dir, { recursive: true, force: true });
}
if (ONLY !== "sqlite") {
  const admin = process.env.LIGHTGATE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `lightgate_bench_${process.pid}`;
  const c = new pg.Client({ connectionString: admin });
  try {
    await c.connect();
    await c.query(`CREATE DATABASE "${name}"`);
    const u = new URL(admin);
    u.pathname = `/${name}`;
    results.push(await benchOne("PostgreSQL", u.toString()));
  } catch (e) {
    console.log(`PostgreSQL skipped: ${(e as Error).message}`);
  } finally {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await c.end().catch(() => {});
  }
}
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(`\nstore bench (${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}, ${SECONDS}s per phase, ${SERVER === "bare" ? "bare node:http server" : SERVER === "next" ? "plain next start" : "Lightgate server (store fast path + Next.js)"})`);
console.log("| database | enqueue/s (×100) | dequeue+complete/s (8 workers) | REST spans/s (c=16) | OTLP spans/s (100/req) | query_spans 1,000 p50 / p99 | p50 + client's JSON decode |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const r of results) console.log(`| ${r.label} | ${fmt(r.enqueue)} | ${fmt(r.cycles)} | ${fmt(r.restSpans)} | ${fmt(r.otlp)} | ${r.p50.toFixed(1)} ms / ${r.p99.toFixed(1)} ms | ${r.p50Decoded.toFixed(1)} ms |`);
process.exit(0);
