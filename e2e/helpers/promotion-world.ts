// A promotion world for e2e specs that need a gated desk candidate: its own production server on a fresh
// database, the desk's runners and verifier as processes, the candidate trained and its gate run done
// (e2e/helpers/promotion-seed.ts); people sign with a virtual WebAuthn authenticator (CDP).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { expect, type Browser, type Page } from "@playwright/test";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { signInAs } from "./auth";

export type Seeded = { candidateId: string; runnerKey: string; verifierKey: string; training: string[]; parent: { resourceId: string; digest: string }; candidate: { resourceId: string; digest: string } };

export async function until<T>(what: string, read: () => Promise<T | null>, ms: number): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 500))) {
    const v = await read();
    if (v !== null) return v;
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}

export class PromotionWorld {
  readonly base: string;
  readonly db: string;
  readonly processes = new Map<string, ChildProcess>();
  seeded!: Seeded;

  constructor(
    readonly port: number,
    readonly dir: string,
  ) {
    this.base = `http://localhost:${port}`;
    this.db = `file:./${dir}/lightgate.db`;
  }

  seed(...args: string[]) {
    const out = execFileSync("npx", ["tsx", "e2e/helpers/promotion-seed.ts", ...args], { env: { ...process.env, DATABASE_URL: this.db }, encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").at(-1)!) as unknown;
  }

  start(name: string, script: string, args: string[], env: Record<string, string>) {
    const child = spawn("npx", ["tsx", script, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", fs.openSync(`${this.dir}/${name}.log`, "w"), fs.openSync(`${this.dir}/${name}.err`, "w")], detached: true });
    this.processes.set(name, child);
    return child;
  }

  stop(name: string) {
    const child = this.processes.get(name);
    if (child?.pid) process.kill(-child.pid, "SIGTERM");
    this.processes.delete(name);
  }

  stopAll() {
    for (const name of [...this.processes.keys()]) this.stop(name);
  }

  /** Server, seed, runners and verifier, training served, and the candidate's gate run done. */
  async up() {
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true });
    const env = { PORT: String(this.port), HOSTNAME: "127.0.0.1", DATABASE_URL: this.db, LIGHTGATE_DEMO: "0", LIGHTGATE_DEMO_USERS: "1", LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: "1000", LIGHTGATE_ORIGIN: this.base, NEXT_TELEMETRY_DISABLED: "1" };
    this.start("server", "scripts/start.ts", [], env);
    await until("the server", () => fetch(`${this.base}/api/health`).then((r) => (r.ok ? true : null), () => null), 200_000);
    this.seeded = this.seed("prepare") as Seeded;
    const tickets = { LIGHTGATE_DESK_TICKETS_URL: this.db };
    for (const i of [1, 2]) this.start(`runner-${i}`, "scripts/runner.ts", ["--url", this.base, "--id", `world-runner-${i}`, "--quiet"], { ...tickets, LIGHTGATE_RUNNER_KEY: this.seeded.runnerKey });
    this.start("verifier", "scripts/verifier.ts", ["--url", this.base, "--quiet"], { ...tickets, LIGHTGATE_VERIFIER_KEY: this.seeded.verifierKey });
    const finished = { in: ["succeeded", "failed", "cancelled"] };
    await this.withDb((db) => until("training episodes", async () => ((await db.storeRollout.count({ where: { rolloutId: { in: this.seeded.training }, status: finished } })) === this.seeded.training.length ? true : null), 120_000));
    const { run } = this.seed("gate", this.seeded.candidateId) as { run: string };
    await this.runDone(run, 240_000);
  }

  async withDb<T>(fn: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>): Promise<T> {
    const database = await openDatabase(resolveDbTarget(this.db));
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  }

  /** Waits for a gate run (admission or canary stage) to finish; it must be done, not failed. */
  async runDone(runId: string, ms: number) {
    const row = await this.withDb((db) => until(`gate run ${runId}`, async () => {
      const r = await db.gateRun.findUniqueOrThrow({ where: { id: runId } });
      return r.status === "done" || r.status === "failed" ? r : null;
    }, ms));
    expect(row.status, row.error ?? "").toBe("done");
    return row;
  }

  async withPasskey(browser: Browser, role: "canary_approver" | "release_approver" | "policy_owner" | "viewer"): Promise<Page> {
    const context = await browser.newContext({ baseURL: this.base, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", { options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } });
    await signInAs(page, role, this.base);
    if (role === "policy_owner" || role === "viewer") return page;
    await page.goto(`${this.base}/settings/security`);
    await page.getByLabel("Name").fill("Laptop");
    await page.getByRole("button", { name: "Add passkey" }).click();
    await expect(page.getByTestId("passkey-outcome")).toContainText("registered");
    return page;
  }
}
