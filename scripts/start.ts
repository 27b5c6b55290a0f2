// `npm start` (and `npm run dev` with --dev): check the configuration, migrate the database,
// build when the sources changed, then serve the dashboard. Any bad configuration ends here with
// one line that says what to fix — never a stack trace.
import net from "node:net";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { defaultDemoMode, EnvError, parseEnv } from "../server/env";
import { redactUrl, resolveDbTarget, type DbTarget } from "../server/db/config";
import { deployMigrations } from "../server/db/migrate";
import { openDatabase } from "../server/db/client";
import { pgPoolConfig } from "../server/db/adapters";
import pg from "pg";
import { buildIsCurrent, writeBuildStamp } from "./build-stamp";
import { demoSignInBanner, demoUsersEnabled, seedDemoUsers } from "../server/auth/demo-users";
import { publicOrigin } from "../server/auth/origin";
import { demoHelpers, prepareDemoWorld, queueDemoRunWhenReady, type DemoWorld } from "../server/training/demo";
import { receiptKeyWarnings, receiptSigningKey, ReceiptKeyError } from "../server/keys/signing-key";

const dev = process.argv.includes("--dev");
const root = process.cwd();
const nextBin = path.join(root, "node_modules/.bin/next");

class StartError extends Error {}

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen({ host, port, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

async function checkDatabase(target: DbTarget) {
  try {
    if (target.dialect === "postgresql") {
      // The driver's own error names the cause (refused, unknown database, bad password).
      const client = new pg.Client({ ...pgPoolConfig(target), connectionTimeoutMillis: 5_000 });
      await client.connect();
      await client.end();
    }
    const db = await openDatabase(target);
    await db.close();
  } catch (e) {
    const reason = (e as Error).message.split("\n")[0] || (e as { code?: string }).code || "unknown error";
    throw new StartError(`cannot reach the database at ${redactUrl(target)}: ${reason}. Check DATABASE_URL, or unset it to use the embedded SQLite default`);
  }
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", env });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new StartError(`${path.basename(cmd)} ${args[0]} failed (exit ${code})`))));
  });
}

async function main() {
  const env = (() => {
    try {
      return parseEnv();
    } catch (e) {
      if (e instanceof EnvError) throw new StartError(e.message);
      throw e;
    }
  })();
  const target = resolveDbTarget(env.DATABASE_URL);
  // Decided once here, so the server, the worker and the sign-in banner agree.
  process.env.LIGHTGATE_DEMO ||= defaultDemoMode(process.env) ? "1" : "0";

  if (!(await portFree(env.HOSTNAME, env.PORT))) {
    throw new StartError(`port ${env.PORT} on ${env.HOSTNAME} is already in use; stop the other server or set PORT to a free port`);
  }
  await checkDatabase(target);
  const applied = await deployMigrations(target).catch((e: Error) => {
    throw new StartError(`migrating ${redactUrl(target)} failed: ${e.message.split("\n")[0]}`);
  });
  console.log(`lightgate: ${target.dialect} at ${redactUrl(target)}${applied.length ? ` (applied ${applied.length} migrations)` : ""}`);
  await checkSigningKey(target);
  const origin = publicOrigin({ ...process.env, PORT: String(env.PORT) });
  for (const problem of origin.webauthnProblems) console.warn(`lightgate: warning: ${problem} — passkeys and signed approvals will not work`);
  const signInHelp = await signInInstructions(target, origin.origin);
  const signInOrigin = origin.origin;

  const childEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: target.url };
  if (!dev && !buildIsCurrent(root)) {
    // Measured on two cores: 100–170 s (the first start after npm install, and after any source change).
    console.log("lightgate: building the dashboard once (first start or sources changed) — about 2 minutes on two cores; Next.js prints its steps below…");
    const started = Date.now();
    await run(nextBin, ["build"], { ...childEnv, NODE_ENV: "production" });
    writeBuildStamp(root);
    console.log(`lightgate: built in ${Math.round((Date.now() - started) / 1000)} s; later starts skip this until the sources change`);
  }

  const demo = process.env.LIGHTGATE_DEMO === "1" ? await prepareDemo(target) : null;
  const demoStop = new AbortController();
  const children: ChildProcess[] = [];
  const server = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/serve.ts", ...(dev ? ["--dev"] : [])], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...childEnv, PORT: String(env.PORT), HOSTNAME: env.HOSTNAME, NODE_ENV: dev ? "development" : "production" },
  });
  children.push(server);
  const shownHost = env.HOSTNAME === "0.0.0.0" ? "127.0.0.1" : env.HOSTNAME;
  let announced = false;
  server.stdout?.on("data", (chunk: Buffer) => {
    const text = chunk.toString();
    if (!announced && /Ready|started server|Local:/i.test(text)) {
      announced = true;
      console.log(`\n  Lightgate is up: ${signInOrigin} (listening on ${shownHost}:${env.PORT})\n\n${signInHelp}\n`);
      if (demo) {
        // The trainer worker, two runners and the verifier, against this server; they exit with it (LIGHTGATE_PARENT_PID).
        const url = `http://${shownHost}:${env.PORT}`;
        for (const h of demoHelpers(url, demo, !process.env.LIGHTGATE_VERBOSE)) {
          children.push(spawnHelper(h.script, h.args, { ...childEnv, LIGHTGATE_PARENT_PID: String(process.pid), ...h.env }));
        }
        console.log(`  Demo: an imitation run is training on the support desk (its candidate goes to the gate), then a live continual PPO run fine-tunes it — watch at ${signInOrigin}/training/${demo.runId}\n`);
        void queueLiveRun(target, demoStop.signal);
      }
    }
    if (dev || process.env.LIGHTGATE_VERBOSE) process.stdout.write(text);
  });

  const stop = (signal: NodeJS.Signals) => {
    demoStop.abort();
    for (const c of children) c.kill(signal);
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  server.on("exit", (code) => {
    stop("SIGTERM");
    process.exit(code ?? 0);
  });
}

/** `node --import tsx` (not the tsx binary) so a signal sent to this process's children reaches the script itself. */
function spawnHelper(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", script, ...args], { stdio: ["ignore", process.env.LIGHTGATE_VERBOSE ? "inherit" : "ignore", "inherit"], env });
}

/** The receipt/audit signing key: made now if there is none (outside the database); refused if others can read it; warned about if it is kept in the database. */
async function checkSigningKey(target: DbTarget): Promise<void> {
  const database = await openDatabase(target);
  try {
    const key = await receiptSigningKey(database.db);
    if (key.source === "file") console.log(`lightgate: receipt/audit signing key ${key.keyid} in ${key.location} (back it up)`);
    for (const w of await receiptKeyWarnings(database.db)) console.warn(`lightgate: warning: ${w}`);
  } catch (e) {
    if (e instanceof ReceiptKeyError) throw new StartError(e.message);
    throw e;
  } finally {
    await database.close();
  }
}

/** Demo mode: once the imitation run's candidate exists, the live fine-tuning run is queued from it. */
async function queueLiveRun(target: DbTarget, signal: AbortSignal): Promise<void> {
  const database = await openDatabase(target);
  try {
    const id = await queueDemoRunWhenReady(database, signal);
    if (id) console.log(`  Demo: the live continual run ${id} is fine-tuning the imitation candidate\n`);
  } catch (e) {
    console.error(`demo: could not queue the live run: ${(e as Error).message}`);
  } finally {
    await database.close();
  }
}

/** Demo mode: see prepareDemoWorld (reference candidates, the desk's gate datasets, service keys, the PPO run). */
async function prepareDemo(target: DbTarget): Promise<DemoWorld> {
  const database = await openDatabase(target);
  try {
    return await prepareDemoWorld(database, new Date()); // evidence ages count from now, not the fixture's date
  } finally {
    await database.close();
  }
}

/** Demo mode seeds one person per role and says how to sign in as each; otherwise it points at setup. */
async function signInInstructions(target: DbTarget, origin: string): Promise<string> {
  const database = await openDatabase(target);
  try {
    if (demoUsersEnabled()) return demoSignInBanner(await seedDemoUsers(database), origin);
    const people = await database.db.user.count();
    return people === 0 ? `  First start: create the first admin at ${origin}/setup` : `  Sign in at ${origin}/sign-in`;
  } finally {
    await database.close();
  }
}

main().catch((e: unknown) => {
  if (e instanceof StartError) {
    console.error(`lightgate: ${e.message}`);
    process.exit(1);
  }
  console.error(e);
  process.exit(1);
});
