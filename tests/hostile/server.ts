// The real production server for the hostile suite: `scripts/start.ts` (what `npm start` runs: migrate,
// seed the demo people, scripts/serve.ts — store fast path beside Next.js) as a child process, on a
// throw-away database. Needs a current `next build` (start.ts builds when the sources changed).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/** The suite's server settings: sign-in throttling high enough that hostile bodies reach the sign-in code. */
export const HOSTILE_SERVER_ENV = { LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: "100000" };

export type RealServer = { url: URL; origin: string; databaseUrl: string; pid: number; stop(): Promise<void> };
export type ThrowawayDatabase = { url: string; drop(): Promise<void> };

const root = process.cwd();
const PG_ADMIN = process.env.LIGHTGATE_PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export async function throwawayDatabase(dialect: "sqlite" | "postgresql", label: string): Promise<ThrowawayDatabase> {
  const name = `lightgate_hostile_${label}_${process.pid}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  if (dialect === "sqlite") {
    const dir = path.join(root, ".tmp", "hostile", name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    return { url: `file:${path.join(dir, "lightgate.db")}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 3_000 });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function postgresAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // ESRCH: the group is gone already
  }
}

/** Starts `npm start`'s script with one demo person per role; resolves once /api/health answers 200. */
export async function startRealServer(opts: { databaseUrl: string; port: number; env?: Record<string, string>; timeoutMs?: number }): Promise<RealServer> {
  const origin = `http://localhost:${opts.port}`;
  // Its own process group: start.ts runs serve.ts (and serve.ts the app) as children, and a signal to the group
  // reaches them all — signalling the tsx wrapper alone once left serve.ts running after the suite.
  const child: ChildProcess = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(opts.port),
      HOSTNAME: "127.0.0.1",
      DATABASE_URL: opts.databaseUrl,
      LIGHTGATE_DEMO: "0",
      LIGHTGATE_DEMO_USERS: "1",
      LIGHTGATE_ORIGIN: origin,
      NEXT_TELEMETRY_DISABLED: "1",
      ...opts.env,
    },
  });
  let log = "";
  const keep = (chunk: Buffer) => void (log = (log + chunk.toString()).slice(-20_000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = new URL(`http://127.0.0.1:${opts.port}`);
  const deadline = Date.now() + (opts.timeoutMs ?? 240_000);
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error(`the server exited before answering:\n${log}`);
    if (Date.now() > deadline) {
      signalGroup(child, "SIGKILL");
      throw new Error(`the server did not answer /api/health in time:\n${log}`);
    }
    const ok = await fetch(new URL("/api/health", url)).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    origin,
    databaseUrl: opts.databaseUrl,
    pid: child.pid!,
    async stop() {
      if (!gone) {
        signalGroup(child, "SIGTERM");
        const timer = setTimeout(() => signalGroup(child, "SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      // Whatever of the group outlived its leader (a helper slow to stop) goes too.
      signalGroup(child, "SIGKILL");
    },
  };
}
