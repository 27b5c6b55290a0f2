// The approval journey in Chromium with a virtual WebAuthn authenticator (CDP), on its own server and
// database (the journey bumps the evaluator, which would make every other spec's reference stale):
// a trainer sees the button disabled with the reason; a release approver registers a passkey, opens
// candidate A of the reference and starts to approve; a policy owner publishes a new evaluator meanwhile →
// the signed click is refused, nothing moves, and the button names the stale check; after the gate re-runs
// the approver approves; the evaluator changes again and the approver still rolls back. A canary approver
// rejects another candidate: the passkey prompt signs the rejection too.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { expect as baseExpect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_NAMES, signInAs } from "./helpers/auth";

const PORT = Number(process.env.E2E_PORT ?? 3210) + 2;
const BASE = `http://localhost:${PORT}`;
const DB = "file:./.tmp/e2e-journey/lightgate.db";
const SHOTS = ".tmp/screens/approvals";

// The candidate page reads a whole receipt; on a loaded machine that takes seconds.
const expect = baseExpect.configure({ timeout: 30_000 });
let server: ChildProcess | null = null;
let candidateA = "";
// Seeded with A, before any evaluator changes (the fixture checks the registries it seeds against).
let candidateB = "";

function seed(...args: string[]): Record<string, string> {
  const out = execFileSync("npx", ["tsx", "e2e/helpers/reference-seed.ts", ...args], { env: { ...process.env, DATABASE_URL: DB }, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, string>;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  fs.rmSync(".tmp/e2e-journey", { recursive: true, force: true });
  fs.mkdirSync(".tmp/e2e-journey", { recursive: true });
  fs.mkdirSync(SHOTS, { recursive: true });
  const env = { ...process.env, PORT: String(PORT), HOSTNAME: "127.0.0.1", DATABASE_URL: DB, LIGHTGATE_DEMO: "0", LIGHTGATE_DEMO_USERS: "1", LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: "1000", LIGHTGATE_ORIGIN: BASE, NEXT_TELEMETRY_DISABLED: "1" };
  server = spawn("npx", ["tsx", "scripts/start.ts"], { env, stdio: ["ignore", fs.openSync(".tmp/e2e-journey/server.log", "w"), fs.openSync(".tmp/e2e-journey/server.err", "w")], detached: true });
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  ({ A: candidateA, B: candidateB } = seed("seed", "A", "B") as { A: string; B: string });
});

test.afterAll(() => {
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
});

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/** Registers a passkey (held by the page's virtual authenticator) for the signed-in person. */
async function registerPasskey(page: Page, name: string) {
  await page.goto(`${BASE}/settings/security`);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByTestId("passkey-outcome")).toContainText("registered");
}

/** A policy owner publishes a new evaluator version through the API, in a context of their own. */
async function bumpEvaluator(browser: Browser, version: string) {
  const context = await browser.newContext({ baseURL: BASE });
  const page = await context.newPage();
  await signInAs(page, "policy_owner", BASE);
  const res = await page.request.post(`${BASE}/api/trpc/registries.publish`, {
    headers: { origin: BASE, "content-type": "application/json" },
    data: { json: { kind: "evaluator", name: "support-desk-evaluator", agent: "support-desk", version, body: { evaluator: "support-desk", version: Number(version) } } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await context.close();
}

const shot = (page: Page, name: string) => page.getByTestId("approval-panel").screenshot({ path: `${SHOTS}/${name}.png` });

test("a trainer sees the approve button disabled, with the reason", async ({ page }) => {
  await signInAs(page, "trainer", BASE);
  await page.goto(`${BASE}/candidates/${candidateA}`);
  await expect(page.getByTestId("approve-button")).toBeDisabled();
  await expect(page.getByTestId("approve-disabled-reason")).toContainText('needs the "approval:canary" scope');
  await shot(page, "1-trainer-disabled");
  // Check 4 is a paired comparison with a floor: its sentence names the interval and n, and beside it the
  // policy's floor and what the candidate had.
  const check4 = page.getByTestId("check-4");
  await expect(check4).toHaveAttribute("data-status", "pass");
  await expect(check4).toContainText(/95 % paired t interval \+0\.0\d\d to \+0\.0\d\d, n = 60 locked cases/);
  await expect(page.getByTestId("check4-floor")).toContainText(/needs ≥ 20 locked cases and a gain above \+0\.020 at the interval's lower end; had n = 60, lower end \+0\.0\d\d/);
  await page.getByRole("button", { name: "evidence of check 4" }).click();
  await expect(page.getByTestId("paired-test")).toContainText("n = 60");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId("checks").screenshot({ path: `${SHOTS}/0-check-4-paired-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("the approver signs; a stale click is refused; after a re-run the approval commits; rollback while stale", async ({ page, browser }) => {
  test.setTimeout(300_000);
  await addVirtualAuthenticator(page);
  await signInAs(page, "release_approver", BASE);
  await registerPasskey(page, "Laptop");

  // page load: the button is enabled; the confirmation names pointer from → to, scope and canary boundary
  await page.goto(`${BASE}/candidates/${candidateA}`);
  await expect(page.getByTestId("approve-button")).toBeEnabled();
  await page.getByTestId("approve-button").click();
  await expect(page.getByTestId("confirm-pointer")).toContainText("canary: nothing yet → rs-");
  await expect(page.getByTestId("approve-confirm")).toContainText("approval:canary for support-desk");
  await expect(page.getByTestId("confirm-boundary")).toContainText("≤ 20 tasks");
  await shot(page, "2-confirm");

  // meanwhile a policy owner publishes evaluator v4; the click is refused and names the stale check
  await bumpEvaluator(browser, "4");
  await page.getByTestId("sign-approve").click();
  await expect(page.getByTestId("approve-outcome")).toContainText(/Not approved: .*checks 1, 4 and 5 are stale \(evaluator changed/);
  await expect(page.getByTestId("approve-button")).toBeDisabled();
  await expect(page.getByTestId("approve-disabled-reason")).toContainText("check 4 is stale");
  await expect(page.getByTestId("decision")).toContainText("checks 1, 4 and 5 are stale (evaluator changed");
  await shot(page, "3-stale-refused");

  // the gate re-runs against evaluator v4: the approver approves
  seed("rerun", candidateA);
  await page.reload();
  await expect(page.getByTestId("approve-button")).toBeEnabled();
  await page.getByTestId("approve-button").click();
  await page.getByTestId("sign-approve").click();
  await expect(page.getByTestId("approve-outcome")).toContainText("Signed and committed");
  await expect(page.getByTestId("approval-panel")).toContainText("PROMOTE TO BOUNDED CANARY");
  // The button gives way to who approved it, when, and what comes next.
  await expect(page.getByTestId("step-decided")).toContainText(`Approved by ${DEMO_NAMES.release_approver} at`);
  await expect(page.getByTestId("step-decided")).toContainText("Next: the bounded canary runs inside its boundary");
  await expect(page.getByTestId("approve-button")).toHaveCount(0);
  await shot(page, "4-approved");

  // evaluator v5: the evidence is stale again, and rollback is still allowed
  await bumpEvaluator(browser, "5");
  await page.reload();
  // Stale, said once, in its own colour — with what a re-run would redo.
  await expect(page.getByTestId("verdict-text")).toHaveText("STALE");
  await expect(page.getByTestId("decision")).toContainText("checks 1, 4 and 5 are stale (evaluator changed");
  await expect(page.getByTestId("rerun-gate")).toContainText("runs the locked held-out gate again");
  const rollback = page.getByTestId("rollback-canary");
  await rollback.getByLabel("Reason (required, signed)").fill("evaluator v5 disagrees with the canary");
  // Like an approval, a rollback is confirmed first: the pointer from → to and the digest to sign.
  await rollback.getByRole("button", { name: "Review rollback" }).click();
  await expect(page.getByTestId("rollback-confirm")).toContainText("canary: rs-");
  await page.getByTestId("sign-rollback-canary").click();
  await expect(page.getByTestId("rollback-outcome")).toContainText("Rolled back");
  await shot(page, "5-rolled-back");

  await page.goto(`${BASE}/approvals`);
  const rows = page.getByTestId("decision-row");
  await expect(rows.first()).toContainText("rollback");
  await expect(rows.first()).toContainText(`by ${DEMO_NAMES.release_approver}`);
  await expect(page.getByTestId("decision-row").filter({ hasText: "Approved the bounded canary step" })).toHaveCount(1);
  await expect(page.getByText("Refused: Evidence went stale")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/6-approvals-page.png`, fullPage: true });
});

test("a rejection asks for the passkey and is signed; the decision is listed with its comment", async ({ page }) => {
  test.setTimeout(240_000);
  await addVirtualAuthenticator(page);
  await signInAs(page, "canary_approver", BASE);
  await registerPasskey(page, "Phone");

  await page.goto(`${BASE}/candidates/${candidateB}`);
  const form = page.getByTestId("reject-form");
  await form.getByLabel(/Reject \/ quarantine/).fill("37 rollouts lack update_ticket spans; not before coverage is fixed.");
  await expect(form).toContainText("Signed with your passkey");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await form.screenshot({ path: `${SHOTS}/7-reject-form-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId("sign-reject").click();
  await expect(page.getByTestId("reject-outcome")).toContainText("Rejected (signed)");
  await shot(page, "8-rejected-signed");
  await page.reload();
  await expect(page.getByTestId("check-7")).toHaveAttribute("data-status", "fail");
  await expect(page.getByTestId("check-7")).toContainText("37 rollouts lack update_ticket spans");

  await page.goto(`${BASE}/approvals`);
  await expect(page.getByTestId("decision-row").first()).toContainText("reject");
  await expect(page.getByTestId("decision-row").first()).toContainText("37 rollouts lack update_ticket spans");
});
