// The whole promotion in Chromium, on its own server and fresh database, every decision signed with a virtual
// WebAuthn authenticator (CDP): a desk candidate for the demo's `helpdesk` agent passes the gate through real
// runner and verifier processes → a canary approver signs the canary step → the canary stage runs through the
// runners and closes (the live panel follows it) → a release approver, another person, signs the default step →
// `GET /v1/pointers/helpdesk/approved-default` names the candidate → a policy owner's registry change makes
// its evidence stale → a signed rollback returns the approved default to the exact parent → a gate re-run judges
// with the new evaluator. At each step the promotion timeline's current step is the machine's, shot at 1440 and 390.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { expect as baseExpect, test, type Browser, type Page } from "@playwright/test";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { DEMO_NAMES, signInAs } from "./helpers/auth";
import { expectTimelineAt, shootAgentHistory, shootTimeline } from "./helpers/timeline";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 3;
const BASE = `http://localhost:${PORT}`;
const DIR = ".tmp/e2e-promotion";
const DB = `file:./${DIR}/lightgate.db`;
const SHOTS = ".tmp/screens/promotion";
const TIMELINE_SHOTS = ".tmp/screens/timeline";
const AGENT = "helpdesk";

const expect = baseExpect.configure({ timeout: 30_000 });
const processes: ChildProcess[] = [];
type Seeded = { candidateId: string; runnerKey: string; verifierKey: string; training: string[]; parent: { resourceId: string; digest: string }; candidate: { resourceId: string; digest: string } };
let seeded: Seeded;

function seed(...args: string[]) {
  const out = execFileSync("npx", ["tsx", "e2e/helpers/promotion-seed.ts", ...args], { env: { ...process.env, DATABASE_URL: DB }, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1)!) as unknown;
}

function start(script: string, args: string[], env: Record<string, string>, log: string) {
  const child = spawn("npx", ["tsx", script, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", fs.openSync(`${DIR}/${log}.log`, "w"), fs.openSync(`${DIR}/${log}.err`, "w")], detached: true });
  processes.push(child);
  return child;
}

async function until<T>(what: string, read: () => Promise<T | null>, ms: number): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 500))) {
    const v = await read();
    if (v !== null) return v;
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  fs.rmSync(DIR, { recursive: true, force: true });
  fs.mkdirSync(DIR, { recursive: true });
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.mkdirSync(TIMELINE_SHOTS, { recursive: true });
  const env = { PORT: String(PORT), HOSTNAME: "127.0.0.1", DATABASE_URL: DB, LIGHTGATE_DEMO: "0", LIGHTGATE_DEMO_USERS: "1", LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: "1000", LIGHTGATE_ORIGIN: BASE, NEXT_TELEMETRY_DISABLED: "1" };
  start("scripts/start.ts", [], env, "server");
  await until("the server", () => fetch(`${BASE}/api/health`).then((r) => (r.ok ? true : null), () => null), 200_000);
  seeded = seed("prepare") as Seeded;
  // The runners and the verifier are processes of their own, as in production: they know the URL and a key —
  // and the desk's Ticket DB (the destination canary effects land in, which the verifier re-reads).
  const tickets = { LIGHTGATE_DESK_TICKETS_URL: DB };
  for (const i of [1, 2]) start("scripts/runner.ts", ["--url", BASE, "--id", `journey-runner-${i}`, "--quiet"], { ...tickets, LIGHTGATE_RUNNER_KEY: seeded.runnerKey }, `runner-${i}`);
  start("scripts/verifier.ts", ["--url", BASE, "--quiet"], { ...tickets, LIGHTGATE_VERIFIER_KEY: seeded.verifierKey }, "verifier");
  const database = await openDatabase(resolveDbTarget(DB));
  try {
    const finished = { in: ["succeeded", "failed", "cancelled"] };
    await until("training episodes", async () => ((await database.db.storeRollout.count({ where: { rolloutId: { in: seeded.training }, status: finished } })) === seeded.training.length ? true : null), 120_000);
    const { run } = seed("gate", seeded.candidateId) as { run: string };
    const done = await until("the gate run", async () => {
      const row = await database.db.gateRun.findUniqueOrThrow({ where: { id: run } });
      return row.status === "done" || row.status === "failed" ? row : null;
    }, 240_000);
    expect(done.status, done.error ?? "").toBe("done");
  } finally {
    await database.close();
  }
});

test.afterAll(() => {
  for (const p of processes) if (p.pid) process.kill(-p.pid, "SIGTERM");
});

async function withPasskey(browser: Browser, role: "canary_approver" | "release_approver" | "policy_owner"): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", { options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true } });
  await signInAs(page, role, BASE);
  if (role === "policy_owner") return page;
  await page.goto(`${BASE}/settings/security`);
  await page.getByLabel("Name").fill("Laptop");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByTestId("passkey-outcome")).toContainText("registered");
  return page;
}

/** The page at both widths, as a reviewer deciding the release would see it. */
async function shots(page: Page, name: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // The top of the page (the decision and its reason) and the canary stage's panel, as a reviewer sees them.
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
    const panel = page.getByTestId("canary-stage-panel");
    if (await panel.count()) await panel.screenshot({ path: `${SHOTS}/${name}-panel-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function pointer(page: Page, name: string) {
  const res = await page.request.get(`${BASE}/v1/pointers/${AGENT}/${name}`);
  return { status: res.status(), body: (await res.json()) as Record<string, unknown> };
}

test("canary step → canary stage through the runners → default step by another person → approved-default → stale → signed rollback → re-run with the new evaluator", async ({ browser }) => {
  test.setTimeout(900_000);
  const candidatePage = `${BASE}/candidates/${seeded.candidateId}`;

  // 1. The gate passed on the runners' evidence: a canary approver signs the canary step.
  const carl = await withPasskey(browser, "canary_approver");
  await carl.goto(candidatePage);
  await expect(carl.getByTestId("verdict-text")).toHaveText("READY FOR APPROVAL");
  await shots(carl, "1-ready");
  await expectTimelineAt(carl, { state: "ready-for-canary", kind: "canary-approval", title: "Canary approval" });
  await shootTimeline(carl, `${TIMELINE_SHOTS}/01-ready-for-canary`);
  await carl.getByTestId("approve-button").click();
  await expect(carl.getByTestId("approve-confirm")).toContainText(`approval:canary for ${AGENT}`);
  await carl.getByTestId("sign-approve").click();
  await expect(carl.getByTestId("approve-outcome")).toContainText("Signed and committed");
  expect((await pointer(carl, "canary")).body).toMatchObject({ digest: seeded.candidate.digest });

  // 2. The canary stage: the runners serve the candidate inside the boundary; the live panel follows it.
  const panel = carl.getByTestId("canary-stage-panel");
  await expect(panel).toBeVisible();
  // The live shot mid-canary: some tasks done, the stage still running (should it close between two refreshes,
  // the shot shows it closed — the assertions below hold either way).
  await expect
    .poll(async () => {
      const status = await panel.getAttribute("data-status");
      const done = Number((await carl.getByTestId("canary-stage-tasks").textContent())?.split("/")[0]);
      return status === "done" || (status === "running" && done > 0);
    }, { timeout: 240_000, intervals: [250] })
    .toBe(true);
  await shots(carl, "2-canary-stage-live");
  await carl.reload();
  // Live or just sealed: the machine says which, and the timeline follows it.
  const live = await carl.getByTestId("timeline").getAttribute("data-state");
  await expectTimelineAt(carl, live === "canary-running" || live === "canary-approved" ? { state: live, kind: "canary-stage", title: "Canary stage" } : { state: "ready-for-default", kind: "default-approval", title: "Default approval" });
  await shootTimeline(carl, `${TIMELINE_SHOTS}/02-canary-stage-live`);
  await expect(panel).toHaveAttribute("data-status", "done", { timeout: 240_000 });
  await expect(panel).toContainText("closed");
  await carl.reload();
  await expect(carl.getByTestId("canary-stage-checks")).toBeVisible();
  await expect(carl.getByTestId("verdict-text")).toHaveText("READY FOR APPROVAL");
  // Four eyes: who approved the canary step may not approve the default step.
  await expect(carl.getByTestId("approve-button")).toBeDisabled();
  await shots(carl, "3-canary-stage-closed");
  await expectTimelineAt(carl, { state: "ready-for-default", kind: "default-approval", title: "Default approval" });
  await expect(carl.locator('[data-testid="timeline-step"][data-kind="canary-stage"]')).toContainText("Canary stage sealed");
  await expect(carl.locator('[data-testid="timeline-step"][data-kind="canary-approval"]')).toContainText(`by ${DEMO_NAMES.canary_approver}`);
  await shootTimeline(carl, `${TIMELINE_SHOTS}/03-ready-for-default`);

  // 3. A release approver — another person — signs the default step.
  const rosa = await withPasskey(browser, "release_approver");
  await rosa.goto(candidatePage);
  await expect(rosa.getByTestId("approve-button")).toBeEnabled();
  await rosa.getByTestId("approve-button").click();
  await expect(rosa.getByTestId("approve-confirm")).toContainText(`approval:default for ${AGENT}`);
  await rosa.getByTestId("sign-approve").click();
  await expect(rosa.getByTestId("approve-outcome")).toContainText("Signed and committed");
  await expect(rosa.getByTestId("step-decided")).toContainText(`Approved by ${DEMO_NAMES.release_approver} at`);
  await rosa.reload();
  await expect(rosa.getByTestId("verdict-text")).toHaveText("PROMOTE TO DEFAULT");
  await shots(rosa, "4-promoted");
  await expectTimelineAt(rosa, { state: "promoted", kind: "promoted", title: "Promoted to the approved default" });
  await expect(rosa.getByTestId("timeline-current")).toContainText(`by ${DEMO_NAMES.release_approver}`);
  await shootTimeline(rosa, `${TIMELINE_SHOTS}/04-promoted`);
  const served = await pointer(rosa, "approved-default");
  expect(served.status).toBe(200);
  expect(served.body).toMatchObject({ digest: seeded.candidate.digest });

  // 4. A policy owner publishes a new evaluator version: the evidence the default rests on goes stale.
  const pat = await withPasskey(browser, "policy_owner");
  const query = encodeURIComponent(JSON.stringify({ json: { kind: "evaluator", agent: AGENT, currentOnly: true } }));
  const current = await pat.request.get(`${BASE}/api/trpc/registries.list?input=${query}`);
  expect(current.ok(), await current.text()).toBe(true);
  const [evaluator] = ((await current.json()) as { result: { data: { json: { name: string; version: string; body: unknown }[] } } }).result.data.json;
  const published = await pat.request.post(`${BASE}/api/trpc/registries.publish`, {
    headers: { origin: BASE, "content-type": "application/json" },
    data: { json: { kind: "evaluator", name: evaluator!.name, agent: AGENT, version: `${evaluator!.version}.1`, body: evaluator!.body } },
  });
  expect(published.ok(), await published.text()).toBe(true);
  await rosa.reload();
  await expect(rosa.getByTestId("verdict-text")).toHaveText("STALE");
  await shots(rosa, "5-stale");
  // The machine still reads promoted (the approved default names it); the timeline says what the stale checks said.
  await expectTimelineAt(rosa, { state: "promoted", kind: "promoted", title: "Promoted to the approved default" });
  const said = rosa.getByTestId("timeline-current").getByTestId("timeline-said");
  await expect(said).toContainText("check 4 went stale — before, it passed");
  await expect(said).toContainText("changed from");
  await shootTimeline(rosa, `${TIMELINE_SHOTS}/05-stale`);

  // 5. A signed rollback returns the approved default to the exact parent, stale evidence notwithstanding.
  const rollback = rosa.getByTestId("rollback-approved_default");
  await rollback.getByLabel("Reason (required, signed)").fill("the evaluator changed under the promoted default");
  await rollback.getByRole("button", { name: "Review rollback" }).click();
  await expect(rosa.getByTestId("rollback-confirm")).toContainText(seeded.parent.resourceId);
  await rosa.getByTestId("sign-rollback-approved_default").click();
  await expect(rosa.getByTestId("rollback-outcome")).toContainText("Rolled back");
  expect((await pointer(rosa, "approved-default")).body).toMatchObject({ digest: seeded.parent.digest });
  await shots(rosa, "6-rolled-back");
  await rosa.reload();
  await expectTimelineAt(rosa, { state: "rolled-back", kind: "rolled-back", title: "Rolled back (approved default)" });
  await expect(rosa.getByTestId("timeline-current")).toContainText("the evaluator changed under the promoted default");
  await shootTimeline(rosa, `${TIMELINE_SHOTS}/06-rolled-back`);

  // The agent's pointer history: the rollback on top, signed; the approvals below it.
  await rosa.getByTestId("agent-history-link").click();
  await expect(rosa.getByTestId("agent-title")).toHaveText(AGENT);
  const newest = rosa.getByTestId("pointer-move").first();
  await expect(newest).toHaveAttribute("data-pointer", "approved_default");
  await expect(newest).toContainText("signed rollback");
  await expect(rosa.locator('[data-testid="pointer-move"][data-pointer="canary"][data-signed="true"]')).toHaveCount(1);
  await shootAgentHistory(rosa, `${TIMELINE_SHOTS}/07-agent-pointer-history`);
  await rosa.getByRole("link", { name: /^Canary \(/ }).click();
  await expect(rosa).toHaveURL(/\?pointer=canary$/);
  await expect(rosa.locator('[data-testid="pointer-move"][data-pointer="approved_default"]')).toHaveCount(0);
  await shootAgentHistory(rosa, `${TIMELINE_SHOTS}/08-agent-pointer-history-canary-lane`);

  // 6. A gate re-run judges with the evaluator in force now: the freshness line, check 4 and the timeline name it.
  const newEvaluator = `${evaluator!.name} v${evaluator!.version}.1`;
  const { run } = seed("gate", seeded.candidateId) as { run: string };
  const database = await openDatabase(resolveDbTarget(DB));
  try {
    const done = await until("the re-run", async () => {
      const row = await database.db.gateRun.findUniqueOrThrow({ where: { id: run } });
      return row.status === "done" || row.status === "failed" ? row : null;
    }, 300_000);
    expect(done.status, done.error ?? "").toBe("done");
  } finally {
    await database.close();
  }
  await rosa.goto(candidatePage);
  await expect(rosa.getByTestId("fresh-until")).toContainText(`with evaluator ${newEvaluator}`);
  await expect(rosa.getByTestId("check-4")).toContainText(`${evaluator!.name}@${evaluator!.version}.1`);
  const rerun = rosa.locator('[data-testid="timeline-cycle"][data-latest="true"] [data-kind="gate-run"]');
  await expect(rerun).toContainText("Gate re-run (run 2)");
  await expect(rerun.getByTestId("judged-evaluator")).toContainText(newEvaluator);
  await expect(rerun).toContainText(`a new evaluator (run 1 was judged with ${evaluator!.name} v${evaluator!.version})`);
  // The canary stage carried over, the default approval of the cycle before the rollback does not count: the default step is open.
  await expect(rosa.getByTestId("timeline")).toHaveAttribute("data-state", "ready-for-default");
  await shootTimeline(rosa, `${TIMELINE_SHOTS}/09-rerun-new-evaluator`);
  for (const p of [carl, rosa, pat]) await p.context().close();
});
