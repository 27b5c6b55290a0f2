// `npm run bench:claims` — issue 27's question: should trainer runs and gate-run steps be claimed by a maintained
// PostgreSQL job queue instead of Lightgate's lease-and-poll loop? Each engine gets real worker processes
// (bench/claims/worker.ts) on a fresh PostgreSQL database per scenario, the same poll (0.5 s) and the same
// 15 s after which a silent worker's job may run again (settings.ts), and is asked four things:
//   pickup     — 20 short jobs, one at a time, to 2 idle workers: enqueue → work starts (ms)
//   killed     — a 45 s job's worker is SIGKILLed 2 s in: when does the other worker start it again?
//   long       — a 40 s job on a healthy worker, another one idle: how many times does it start?
//   idle       — 2 idle workers for 10 s: their database transactions per second and CPU (workers + backends)
// Options: --engines lease,pg-boss,graphile   Needs PostgreSQL (LIGHTGATE_TEST_PG_URL or 127.0.0.1:5432).
import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { openDatabase, type Database } from "../server/db/client";
import { resolveDbTarget } from "../server/db/config";
import { createQueuedRun } from "../server/training/lifecycle";
import { CLAIM_SETTINGS, ENGINES, type Engine, type JobData } from "./claims/settings";
import { processCpuSeconds } from "./store/cpu";
import { freshPostgres, type FreshDatabase } from "./store/servers";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const engines = arg("engines", ENGINES.join(",")).split(",") as Engine[];
for (const e of engines) if (!ENGINES.includes(e)) throw new Error(`--engines: ${ENGINES.join(", ")}; not ${e}`);

type Event = { ev: "ready" | "start" | "end" | "lost"; job: string; worker: string; t: number };

/** Worker processes of one engine on one database, and everything they said. */
class Workers {
  readonly events: Event[] = [];
  readonly #children = new Map<string, ChildProcess>();
  #listeners = new Set<() => void>();
  constructor(
    readonly engine: Engine,
    readonly url: string,
  ) {}

  async spawn(id: string): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", "bench/claims/worker.ts", this.engine, this.url, id], { stdio: ["ignore", "pipe", "inherit"] });
    this.#children.set(id, child);
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.startsWith("{")) return;
      this.events.push(JSON.parse(line) as Event);
      for (const l of this.#listeners) l();
    });
    if (!(await this.next((e) => e.ev === "ready" && e.worker === id, 60_000))) throw new Error(`${this.engine} worker ${id} did not start`);
  }

  /** The first event (already seen or coming) that `match`es, or null after `ms`. */
  next(match: (e: Event) => boolean, ms: number): Promise<Event | null> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const check = () => {
        const e = this.events.find(match);
        if (e) done(e);
      };
      const done = (e: Event | null) => {
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve(e);
      };
      const timer = setTimeout(() => done(null), ms);
      this.#listeners.add(check);
    });
  }

  kill(id: string) {
    this.#children.get(id)?.kill("SIGKILL");
  }
  pids = () => [...this.#children.values()].filter((c) => c.exitCode === null && c.signalCode === null).map((c) => c.pid!);
  async stop() {
    await Promise.all(
      [...this.#children.values()].map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => (c.once("exit", r), c.kill("SIGKILL"))))),
    );
  }
}

/** How a scenario hands an engine a job. */
type Enqueue = (job: JobData) => Promise<void>;

async function enqueuer(engine: Engine, url: string): Promise<{ enqueue: Enqueue; close: () => Promise<void> }> {
  if (engine === "lease") {
    const database: Database = await openDatabase(resolveDbTarget(url));
    let n = 0;
    const enqueue: Enqueue = async (job) => {
      await createQueuedRun(database.db, {
        id: `run-bench-${++n}`, agent: "bench", name: job.key, family: "supervised", config: JSON.stringify(job), seed: "0", environment: "bench", distribution: "bench",
        parentResourcesId: "bench", parentVersion: 1, parentDigest: "0", heldOutCases: 0, retryBudget: 0, codeRevision: "bench", candidateEvery: 1, checkpointEvery: 1, updatesTotal: 1, startedById: "bench",
      });
    };
    return { enqueue, close: () => database.close() };
  }
  if (engine === "pg-boss") {
    const { default: PgBoss } = await import("pg-boss");
    const boss = new PgBoss({ connectionString: url, supervise: false, schedule: false });
    await boss.start();
    await boss.createQueue("bench");
    return { enqueue: async (job) => void (await boss.send("bench", job, CLAIM_SETTINGS.pgBoss.send)), close: () => boss.stop({ graceful: false, wait: true }) };
  }
  const { makeWorkerUtils } = await import("graphile-worker");
  const utils = await makeWorkerUtils({ connectionString: url });
  await utils.migrate();
  return { enqueue: async (job) => void (await utils.addJob("bench", job)), close: async () => await utils.release() };
}

/** A fresh database, its enqueuer (which also installs the engine's schema) and `n` workers. */
async function setUp(engine: Engine, n: number) {
  const db = await freshPostgres();
  const q = await enqueuer(engine, db.url);
  const workers = new Workers(engine, db.url);
  for (let i = 1; i <= n; i++) await workers.spawn(`w${i}`);
  return { db, q, workers, down: async () => (await workers.stop(), await q.close(), await db.drop()) };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function pickup(engine: Engine) {
  const s = await setUp(engine, 2);
  try {
    const idle = await idleCost(s.db, s.workers);
    const ms: number[] = [];
    for (let i = 0; i < 20; i++) {
      const key = `pickup-${i}`;
      const t0 = Date.now();
      await s.q.enqueue({ key, seconds: 0.05 });
      const start = await s.workers.next((e) => e.ev === "start" && e.job === key, 30_000);
      if (!start) throw new Error(`${engine}: ${key} never started`);
      ms.push(start.t - t0);
      await s.workers.next((e) => e.ev === "end" && e.job === key, 30_000);
    }
    return { p50: pct(ms, 50), p99: pct(ms, 99), idle };
  } finally {
    await s.down();
  }
}

/** Two idle workers for 10 s: transactions per second in their database, and CPU % (workers + backends). */
async function idleCost(db: FreshDatabase, workers: Workers) {
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  try {
    const xacts = async () => Number((await admin.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()")).rows[0]!.n);
    // Per process: a pooled backend may close (or open) during the window; each counts what it used inside it.
    const cpu = async () => new Map([...workers.pids(), ...((await db.backends?.()) ?? [])].map((pid) => [pid, processCpuSeconds(pid) ?? 0]));
    await sleep(2_000);
    const [x0, c0, t0] = [await xacts(), await cpu(), Date.now()];
    await sleep(10_000);
    const seconds = (Date.now() - t0) / 1000;
    const c1 = await cpu();
    let used = 0;
    for (const pid of new Set([...c0.keys(), ...c1.keys()])) used += Math.max(0, (c1.get(pid) ?? c0.get(pid) ?? 0) - (c0.get(pid) ?? 0));
    // This function's own reads count once each: subtract them.
    return { xactsPerSecond: ((await xacts()) - x0 - 2) / seconds, cpuPercent: (used / seconds) * 100 };
  } finally {
    await admin.end();
  }
}

async function killed(engine: Engine) {
  const s = await setUp(engine, 2);
  try {
    await s.q.enqueue({ key: "killed", seconds: 45 });
    const first = await s.workers.next((e) => e.ev === "start" && e.job === "killed", 30_000);
    if (!first) throw new Error(`${engine}: the job never started`);
    await sleep(2_000);
    s.workers.kill(first.worker);
    const tKill = Date.now();
    const again = await s.workers.next((e) => e.ev === "start" && e.job === "killed" && e.worker !== first.worker, 60_000);
    return again ? (again.t - tKill) / 1000 : null;
  } finally {
    await s.down();
  }
}

async function long(engine: Engine) {
  const s = await setUp(engine, 2);
  try {
    await s.q.enqueue({ key: "long", seconds: 40 });
    await s.workers.next((e) => e.ev === "end" && e.job === "long", 60_000);
    await sleep(3_000);
    const starts = s.workers.events.filter((e) => e.ev === "start" && e.job === "long");
    const lost = s.workers.events.filter((e) => e.ev === "lost" && e.job === "long").length;
    return { starts: starts.length, workers: new Set(starts.map((e) => e.worker)).size, lost };
  } finally {
    await s.down();
  }
}

const VERSIONS: Record<Engine, string> = { lease: "Lightgate lease loop (server/training/worker.ts, NOTIFY wake-ups)", "pg-boss": "pg-boss 10.4 (expireInSeconds 15)", graphile: "graphile-worker 0.16 (LISTEN/NOTIFY)" };
const rows: string[] = [];
for (const engine of engines) {
  process.stderr.write(`${engine}: pickup and idle…\n`);
  const p = await pickup(engine);
  process.stderr.write(`${engine}: killed worker…\n`);
  const k = await killed(engine);
  process.stderr.write(`${engine}: long job…\n`);
  const l = await long(engine);
  rows.push(
    `| ${VERSIONS[engine]} | ${p.p50} / ${p.p99} | ${k === null ? "not within 60 s" : `${k.toFixed(1)} s`} | ${l.starts} start${l.starts === 1 ? "" : "s"} on ${l.workers} worker${l.workers === 1 ? "" : "s"}${l.lost ? ` (${l.lost} lost its hold)` : ""} | ${p.idle.xactsPerSecond.toFixed(1)} / ${p.idle.cpuPercent.toFixed(1)} % |`,
  );
}
console.log(`\nclaims bench — 2 worker processes per engine, poll ${CLAIM_SETTINGS.pollSeconds} s, a silent worker's job free again after ${CLAIM_SETTINGS.leaseSeconds} s`);
console.log("| engine | pickup p50 / p99, ms | 45 s job, its worker SIGKILLed: started again after | 40 s job, healthy worker | idle: transactions/s / CPU (workers + db) |");
console.log("| --- | --- | --- | --- | --- |");
for (const r of rows) console.log(r);
