// Lightgate servers the bench starts itself: a fresh database (SQLite file or PostgreSQL database) with
// migrations and an API key, and 1…n server processes on consecutive ports over it.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createApiKey } from "../../server/auth/api-keys";
import { openDatabase } from "../../server/db/client";
import { resolveDbTarget } from "../../server/db/config";
import { deployMigrations } from "../../server/db/migrate";

/** "lightgate": scripts/serve.ts (what `npm start` runs); "next": plain `next start`; "bare": scripts/store/serve.ts. */
export type ServerKind = "lightgate" | "next" | "bare";

export type FreshDatabase = { url: string; label: string; token: string; drop(): Promise<void>; backends?: () => Promise<number[]> };

export const PG_ADMIN = process.env.LIGHTGATE_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function prepare(url: string): Promise<string> {
  const target = resolveDbTarget(url);
  await deployMigrations(target);
  const database = await openDatabase(target);
  try {
    return (await createApiKey(database.db, { name: "bench", role: "algorithm" })).token;
  } finally {
    await database.close();
  }
}

export async function freshSqlite(): Promise<FreshDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-bench-"));
  const url = `file:${path.join(dir, "bench.db")}`;
  return { url, label: "SQLite (WAL, synchronous=NORMAL)", token: await prepare(url), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function freshPostgres(): Promise<FreshDatabase> {
  const name = `lightgate_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end().catch(() => {});
  };
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const u = new URL(PG_ADMIN);
    u.pathname = `/${name}`;
    const version = (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v.split(" ")[0];
    // The backends serving this database (their CPU is the database's share of the work; /proc is world-readable).
    const backends = async () => (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [name])).rows.map((r) => r.pid);
    return { url: u.toString(), label: `PostgreSQL ${version}`, token: await prepare(u.toString()), drop, backends };
  } catch (e) {
    await drop();
    throw e;
  }
}

/** Bytes the database holds now (PostgreSQL: pg_database_size; SQLite: the file with its WAL). */
export async function databaseBytes(url: string): Promise<number> {
  if (url.startsWith("file:")) {
    const file = url.slice(5);
    return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>("SELECT pg_database_size(current_database()) AS n")).rows[0]!.n);
  } finally {
    await c.end();
  }
}

export function startServer(kind: ServerKind, databaseUrl: string, port: number, nodeFlags: string[], extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const [cmd, args] =
      kind === "bare"
        ? [process.execPath, [...nodeFlags, "--import", "tsx", "scripts/store/serve.ts", "--port", String(port)]]
        : kind === "next"
          ? [path.join("node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"]]
          : [process.execPath, [...nodeFlags, "--import", "tsx", "scripts/serve.ts"]];
    const child = spawn(cmd, args, {
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LIGHTGATE_DEMO: "0", PORT: String(port), HOSTNAME: "127.0.0.1", ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    // BENCH_SERVER_LOG=FILE: the servers' output (e.g. with --server-node "--trace-gc") appended to FILE.
    const log = process.env.BENCH_SERVER_LOG ? fs.createWriteStream(process.env.BENCH_SERVER_LOG, { flags: "a" }) : null;
    if (log) {
      child.stdout!.pipe(log);
      child.stderr!.pipe(log);
    }
    const onData = (d: Buffer) => {
      if (out.length > 100_000) return; // ready long ago; keep the check's memory bounded
      out += d.toString();
      if (/Ready|started server|Local:|ready http/i.test(out)) resolve(child);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => reject(new Error(`server on port ${port} exited (${code}): ${out.slice(-500)}`)));
  });
}

export async function stopServers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (c) => {
      if (c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGTERM");
      const timer = setTimeout(() => c.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}
