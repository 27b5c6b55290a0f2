// The README's worked examples, run for real: while a "dashboard" has the SQLite database open and writing
// (this test process: a Database from openDatabase plus a store, as scripts/serve.ts holds them),
// `npm run apikey` makes a key and `npm run store:serve` serves it on the same file. And when a migration
// is pending and the file is held, the script says so in one line and exits, rather than hanging in the
// schema engine and dying with "unknown variant `SocketTimeout`".
import { spawn } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey, listApiKeys } from "@/server/auth/api-keys";
import { migrationsOnDisk } from "@/server/db/migration-files";
import { createTestStore, type StoreFixture } from "../helpers/store";

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--import", "tsx", script, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    p.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    p.on("exit", (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe("scripts beside a server that holds the SQLite database", () => {
  let fixture: StoreFixture;
  let env: NodeJS.ProcessEnv;
  let writes: ReturnType<typeof setInterval>;
  beforeAll(async () => {
    fixture = await createTestStore("sqlite", "beside");
    env = { ...process.env, DATABASE_URL: fixture.database.url, NEXT_TELEMETRY_DISABLED: "1" };
    // The "dashboard" keeps writing: short transactions, as sign-ins, heartbeats and audit rows are.
    let n = 0;
    writes = setInterval(() => {
      void fixture.database
        .transaction((tx) => tx.systemSetting.upsert({ where: { key: "test.beat" }, create: { key: "test.beat", value: "0" }, update: { value: String(++n) } }))
        .catch(() => {});
    }, 100);
  }, 60_000);
  afterAll(async () => {
    clearInterval(writes);
    await fixture?.drop();
  });

  // Each step starts npm scripts (npm → tsx → Prisma) as separate processes: a minute on a loaded two-core machine.
  it("npm run apikey -- create answers with a key the running server sees", { timeout: 180_000 }, async () => {
    const list = await runScript("scripts/apikey.ts", ["list"], env);
    expect(list.code, list.stderr).toBe(0);
    const run = await runScript("scripts/apikey.ts", ["create", "--role", "runner", "--name", "beside-dashboard"], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\blgk_[A-Za-z0-9_-]+/);
    const keys = await listApiKeys(fixture.database.db);
    expect(keys.map((k) => k.name)).toContain("beside-dashboard");
  });

  it("npm run apikey -- create --role verifier makes the verifier's key (the name defaults to the role)", { timeout: 180_000 }, async () => {
    const run = await runScript("scripts/apikey.ts", ["create", "--role", "verifier"], env);
    expect(run.code, run.stderr).toBe(0);
    const token = /\blgk_[A-Za-z0-9_-]+/.exec(run.stdout)![0];
    const actor = await authenticateApiKey(fixture.database.db, token);
    expect(actor).toMatchObject({ kind: "service", roles: ["verifier"], name: "verifier key" });
    expect([...actor!.scopes]).toEqual(["canary:verify"]);
  });

  it("npm run apikey -- create --agent … --phase … binds the key: its role per agent, its phases; a bad phase is refused", { timeout: 180_000 }, async () => {
    const run = await runScript("scripts/apikey.ts", ["create", "--role", "runner", "--name", "desk runners", "--agent", "helpdesk", "--agent", "support-desk", "--phase", "training", "--phase", "locked_gate"], env);
    expect(run.code, run.stderr).toBe(0);
    const token = /\blgk_[A-Za-z0-9_-]+/.exec(run.stdout)![0];
    const actor = await authenticateApiKey(fixture.database.db, token);
    expect(actor?.grants).toEqual([{ role: "runner", agent: "helpdesk" }, { role: "runner", agent: "support-desk" }]);
    expect(actor?.phases).toEqual(["training", "locked_gate"]);
    const list = await runScript("scripts/apikey.ts", ["list"], env);
    expect(list.stdout).toContain("agents: helpdesk, support-desk; phases: training, locked_gate");
    const bad = await runScript("scripts/apikey.ts", ["create", "--role", "runner", "--phase", "exam"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/phases: "exam" is not one of training, locked_gate/);
  });

  it("npm run store:serve starts on the same file and a runner key made meanwhile dequeues the server's rollout", { timeout: 180_000 }, async () => {
    const made = await runScript("scripts/apikey.ts", ["create", "--role", "runner", "--name", "beside-store"], env);
    expect(made.code, made.stderr).toBe(0);
    const token = /\blgk_[A-Za-z0-9_-]+/.exec(made.stdout)![0];
    const [rollout] = await fixture.store.enqueueRollouts([{ input: { from: "dashboard" } }]);

    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/store/serve.ts", "--port", String(port)], { env, stdio: ["ignore", "pipe", "pipe"] });
    try {
      let out = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`store:serve not ready after 60 s: ${out}`)), 60_000);
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          if (!out.includes("ready")) return;
          clearTimeout(timer);
          resolve();
        });
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`store:serve exited (${code}): ${out}`));
        });
      });
      const res = await fetch(`http://127.0.0.1:${port}/v1/agl/queues/rollouts/dequeue`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ limit: 1, worker_id: "beside-runner" }),
      });
      expect(res.status).toBe(200);
      const got = (await res.json()) as { rollout_id: string }[];
      expect(got.map((r) => r.rollout_id)).toEqual([rollout!.rollout_id]);
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("with a migration pending and the file held, apikey refuses in one line with what to do", { timeout: 180_000 }, async () => {
    // The checkout has a migration the running server's database has not: forget that the last one ran.
    const last = migrationsOnDisk("sqlite").at(-1)!.name;
    await fixture.database.db.$executeRaw`DELETE FROM "_prisma_migrations" WHERE migration_name = ${last}`;
    // How long the script takes here just to start (its usage line): the machine is shared, figures vary.
    const baselineMs = (await runScript("scripts/apikey.ts", [], env)).ms;
    const run = await runScript("scripts/apikey.ts", ["create", "--role", "runner", "--name", "while-pending"], env);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    const message = run.stderr.trim();
    expect(message.split("\n")).toHaveLength(1);
    expect(message).not.toMatch(/SocketTimeout|WASM|\bat /);
    expect(message).toContain(last);
    expect(message).toContain(fixture.database.url.slice("file:".length));
    expect(message).toContain("npm run db:migrate");
    // Its bounded wait (3 s) on top of starting up, not the engine's 10-s busy timeout.
    expect(run.ms).toBeLessThan(baselineMs + 3_000 + 6_000);
    expect((await listApiKeys(fixture.database.db)).map((k) => k.name)).not.toContain("while-pending");
  });
});
