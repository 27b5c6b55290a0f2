// `npm run screenshots`: the review screenshots of issue 15, on a throw-away server and database, at 1440 and
// 390 px, into .tmp/screenshots (or SCREENSHOT_DIR). The story they tell, in order:
//   reference candidates B, C, D (quarantined, each with its reason) · /approvals as the canary approver while
//   A waits (no passkey yet: the reason links to Security) · the release approver registers a passkey and
//   approves A through the page → candidate A in its bounded canary and /approvals as the release approver ·
//   a policy owner publishes a new evaluator → candidate A is STALE, seen by a trainer who may re-run the gate.
// Needs a current production build (npm start builds one when the sources changed).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { DEMO_PASSWORD, demoEmail } from "../lib/auth/demo-accounts";
import type { HumanRole } from "../lib/auth/scopes";

const PORT = Number(process.env.SCREENSHOT_PORT ?? 3290);
const BASE = `http://localhost:${PORT}`;
const WORK = path.resolve(".tmp/screenshots-db");
const OUT = path.resolve(process.env.SCREENSHOT_DIR ?? ".tmp/screenshots");
const DB = `file:${WORK}/lightgate.db`;
const WIDTHS = [1440, 390] as const;

function startServer() {
  fs.rmSync(WORK, { recursive: true, force: true });
  fs.mkdirSync(WORK, { recursive: true });
  fs.mkdirSync(OUT, { recursive: true });
  const env = { ...process.env, PORT: String(PORT), HOSTNAME: "127.0.0.1", DATABASE_URL: DB, LIGHTGATE_DEMO: "0", LIGHTGATE_DEMO_USERS: "1", LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: "1000", LIGHTGATE_ORIGIN: BASE, NEXT_TELEMETRY_DISABLED: "1" };
  const log = fs.openSync(path.join(WORK, "server.log"), "w");
  return spawn("npx", ["tsx", "scripts/start.ts"], { env, stdio: ["ignore", log, log], detached: true });
}

async function waitForHealth() {
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the server did not answer on ${BASE} (see ${WORK}/server.log)`);
}

async function signedIn(browser: Browser, role: HumanRole): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const res = await page.request.post(`${BASE}/api/auth/sign-in/email`, { data: { email: demoEmail(role), password: DEMO_PASSWORD }, headers: { origin: BASE } });
  if (!res.ok()) throw new Error(`signing in as ${role} failed: ${res.status()}`);
  return page;
}

/** Waits for the page's data, then a full-page PNG at each width. */
async function shoot(page: Page, url: string, name: string, ready: (p: Page) => Promise<unknown>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await page.goto(url, { waitUntil: "load" });
    await ready(page);
    await page.waitForTimeout(600);
    const file = path.join(OUT, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`  ${path.relative(process.cwd(), file)}`);
  }
}

const candidateReady = (p: Page) => p.getByTestId("approval-panel").waitFor({ timeout: 60_000 });
const approvalsReady = (p: Page) => p.getByText("Recent decisions").waitFor({ timeout: 60_000 });

async function main() {
  const server = startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await waitForHealth();
    const seeded = execFileSync("npx", ["tsx", "e2e/helpers/reference-seed.ts", "seed-all"], { env: { ...process.env, DATABASE_URL: DB }, encoding: "utf8" });
    const ids = JSON.parse(seeded.trim().split("\n").at(-1)!) as Record<"A" | "B" | "C" | "D", string>;

    const release = await signedIn(browser, "release_approver");
    for (const name of ["B", "C", "D"] as const) await shoot(release, `/candidates/${ids[name]}`, `candidate-${name}`, candidateReady);

    const canary = await signedIn(browser, "canary_approver");
    await shoot(canary, "/approvals", "approvals-canary-approver", approvalsReady);

    // The release approver registers a passkey (a virtual authenticator) and approves A through the page.
    const cdp = await release.context().newCDPSession(release);
    await cdp.send("WebAuthn.enable");
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await release.setViewportSize({ width: 1440, height: 900 });
    await release.goto("/settings/security");
    await release.getByLabel("Name").fill("Laptop");
    await release.getByRole("button", { name: "Add passkey" }).click();
    await release.getByTestId("passkey-outcome").getByText("registered").waitFor({ timeout: 30_000 });
    await release.goto(`/candidates/${ids.A}`);
    await release.getByTestId("approve-button").click();
    await release.getByTestId("sign-approve").click();
    await release.getByTestId("step-decided").waitFor({ timeout: 60_000 });
    await shoot(release, `/candidates/${ids.A}`, "candidate-A", candidateReady);
    await shoot(release, "/approvals", "approvals-release-approver", approvalsReady);

    // A policy owner publishes evaluator v4: A's evidence is stale; a trainer (gate:run) sees the re-run.
    const owner = await signedIn(browser, "policy_owner");
    const res = await owner.request.post(`${BASE}/api/trpc/registries.publish`, {
      headers: { origin: BASE, "content-type": "application/json" },
      data: { json: { kind: "evaluator", name: "support-desk-evaluator", agent: "support-desk", version: "4", body: { evaluator: "support-desk", version: 4 } } },
    });
    if (!res.ok()) throw new Error(`publishing the evaluator failed: ${await res.text()}`);
    const trainer = await signedIn(browser, "trainer");
    await shoot(trainer, `/candidates/${ids.A}`, "candidate-stale", candidateReady);
    console.log(`screenshots: ${OUT}`);
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid, "SIGTERM");
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
