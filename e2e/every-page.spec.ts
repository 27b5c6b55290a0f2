// The page sweep: every page of the dashboard (e2e/helpers/pages.ts finds them on disk) as each demo role,
// on a phone (390 × 844) and a laptop (1440 × 900): no page scrolls sideways, nothing is written to the
// console as an error, and axe finds no serious or critical accessibility violation. Each page is loaded once
// at 390 px and then widened, in one browser context per role.
//
// Two depths. `npm run test:sweep` (LIGHTGATE_SWEEP=full) is the whole matrix: every role opens every page and
// axe runs at both widths on each — the proof behind "axe 0 serious for every role", about 15 minutes. The run
// in `npm test` keeps what can differ: the admin (who sees every page and every form) opens every page at both
// widths, with axe at 390 px on the pages axeEveryRun names and at 1440 px where the desktop layout differs most; the
// viewer (every form and button closed, each saying why) and the canary approver (an approval panel half open: the
// canary step theirs, the default step not) open the pages scopes change at 390 px, with axe on the approval and
// candidate pages. Between them and the admin they see every state a role-gated element has — enabled, closed
// with its reason, and both on one panel; the other roles' combinations of those states run in the full sweep.
// A role's read access never differs (every person reads the whole dashboard: lib/auth/scopes.ts), so the
// pages outside that list render the same content for every role but the sidebar's links.
import AxeBuilder from "@axe-core/playwright";
import { seedReference } from "./helpers/seed";
import { expect, test, type Page } from "@playwright/test";
import { HUMAN_ROLES, type HumanRole } from "@/lib/auth/scopes";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { listExternalTrainings } from "@/server/training/external";
import { storeFor } from "@/server/store";
import { seedLineageFixture } from "../tests/helpers/dataset-fixture";
import { stopOpenRuns } from "../tests/helpers/stop-open-runs";
import { signInAs } from "./helpers/auth";
import { dashboardPaths, PUBLIC_ROUTES } from "./helpers/pages";

const DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const WIDTHS = [390, 1440] as const;
const FULL = process.env.LIGHTGATE_SWEEP === "full";
/** Where axe also runs at 1440 px as the admin (the shell's sidebar, a candidate page, the inbox). */
const axeAt1440 = (path: string, candidate: string) => path === "/" || path === "/approvals" || path === candidate;
/**
 * Outside the full run, axe (the slow part) runs as the admin on the pages where releases are decided and on the
 * ones the last changes touched — the shell, the inbox, candidates, a case's two traces, the model and compare
 * pages, training and its compare — every page still opens at both widths for scroll and console checks.
 */
const axeEveryRun = (path: string) => /^\/(approvals|candidates|agents\/|training(\/compare|$)|$)/.test(path) || path === "/";

let paths: string[] = [];

/** Every kind of record a dynamic page shows exists (the sweep must not depend on which specs ran before). */
test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  await seedReference(DB);
  const database = await openDatabase(resolveDbTarget(DB));
  const sweepStarted = new Date();
  const page = await browser.newPage();
  await signInAs(page, "trainer");
  const base = test.info().project.use.baseURL!;
  /** As the page's own form does: a tRPC mutation signed in as the trainer. */
  const mutate = async (proc: string, input: unknown) => {
    const res = await page.request.post(`${base}/api/trpc/${proc}`, { headers: { origin: base, "content-type": "application/json" }, data: { json: input } });
    expect(res.ok(), await res.text()).toBe(true);
  };
  try {
    if (!(await database.db.trainingRun.count())) {
      const run = { agent: "support-desk", family: "ppo", config: { episodesPerUpdate: 8 }, seed: "page-sweep", environment: "support-desk", distribution: "v2", updates: 1, checkpointEvery: 1, continual: false, heldOutCases: 60, retryBudget: 100 };
      await mutate("trainers.startRun", run);
    }
    if (!(await database.db.datasetSnapshot.count())) await seedLineageFixture(database, "e2e/page-sweep");
    // An Agent Lightning training (a resources lineage written through the store, not by Lightgate's trainer): two
    // versions — the list shows lineages, a single-version id is a folded trial — and no rollout, so nothing is
    // left queued for a later spec's runners.
    if (!(await listExternalTrainings(database, { offset: 0, limit: 1 })).total) {
      const store = storeFor(database);
      for (const template of ["Answer briefly.", "Answer briefly and cite the knowledge base."]) await store.updateResources("e2e-page-sweep-apo", { prompt: { resource_type: "prompt_template", template, engine: "f-string" } });
    }
    if (!(await database.db.evaluationJob.count())) {
      await mutate("evaluations.start", { name: "page sweep", subject: { kind: "family", family: "supervised", config: { maxEpochs: 1 } }, protocols: ["held-out"], heldOutSize: 60 });
    }
    if (!(await database.db.trainingSweep.count())) {
      const space = { mode: "grid", params: [{ kind: "values", path: "ppo.learningRate", values: [0.05, 0.2] }] };
      await mutate("sweeps.start", { name: "page sweep", family: "curriculum", baseConfig: { episodesPerUpdate: 8, calibrationTasks: 60 }, space, seedsPerConfig: 1, updates: 1, heldOutCases: 20 });
    }
    // The pages need these records to exist, not to be trained: nothing is left queued for a later spec's worker
    // (the sweeps spec waits for its own runs behind whatever is queued). Stopped through the run lifecycle.
    await stopOpenRuns(database, { createdAt: { gte: sweepStarted } }, "the page sweep (not trained)");
    await database.db.evaluationJob.updateMany({ where: { status: { in: ["queued", "running"] }, createdAt: { gte: sweepStarted } }, data: { status: "failed" } });
    paths = await dashboardPaths(database);
  } finally {
    await page.close();
    await database.close();
  }
});

/** Waits until the page's data arrived (no "Loading…" left in the main area) and layout settled. */
async function settle(page: Page) {
  await page.waitForLoadState("load");
  await page.waitForFunction(() => !/Loading…|Loading the/.test(document.querySelector("main")?.textContent ?? document.body.textContent ?? ""), null, { timeout: 20_000 }).catch(() => undefined);
  await page.waitForTimeout(150);
}

async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")} (${n.any[0]?.message ?? n.failureSummary ?? ""})`).join(" | ")}${v.nodes.length > 3 ? ` (+${v.nodes.length - 3})` : ""}`);
}

/** Visits `list` in one context, collecting every problem (so one run names them all). */
async function sweep(page: Page, list: readonly string[], axe: (path: string, width: number) => boolean, widths: readonly number[] = WIDTHS): Promise<string[]> {
  const problems: string[] = [];
  let errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  for (const path of list) {
    errors = [];
    await page.setViewportSize({ width: widths[0]!, height: 844 });
    await page.goto(path, { waitUntil: "load" });
    await settle(page);
    for (const width of widths) {
      if (width !== widths[0]) {
        await page.setViewportSize({ width, height: 900 });
        await page.waitForTimeout(150);
      }
      const over = await sidewaysScroll(page);
      if (over > 0) problems.push(`${path} @ ${width}: scrolls sideways by ${over} px`);
      if (axe(path, width)) for (const v of await seriousViolations(page)) problems.push(`${path} @ ${width}: ${v}`);
    }
    for (const e of errors) problems.push(`${path}: console error: ${e.slice(0, 300)}`);
  }
  return problems;
}

test("without a session: sign-in, setup and status, on a phone and a laptop", async ({ page }) => {
  expect(await sweep(page, PUBLIC_ROUTES, () => true)).toEqual([]);
});

/** Pages whose content depends on the role (its scopes enable forms, buttons and panels). */
const roleSensitive = (path: string) => /^\/(candidates\/|approvals|registries|settings|training\/new|training\/sweeps\/new|evaluations\/new|datasets\/new)/.test(path);

/** Whoever opens every page does so in this many parts, each its own test, so one slow page cannot time out the rest. */
const PARTS = 4;

/** The roles the everyday run sweeps (the full run: every role). */
const EVERYDAY_ROLES: readonly HumanRole[] = ["viewer", "canary_approver", "admin"];

for (const role of FULL ? HUMAN_ROLES : EVERYDAY_ROLES) {
  const everyPage = FULL || role === "admin";
  for (let part = 0; part < (everyPage ? PARTS : 1); part++) {
    const title = `every page as ${role}${everyPage ? ` (part ${part + 1})` : ""}: no sideways scroll at 390 and 1440 px, no console error, no serious axe violation${FULL ? " at either width" : ""}`;
    test(title, async ({ page }) => {
      test.setTimeout(FULL ? 600_000 : 300_000);
      expect(paths.length).toBeGreaterThan(15);
      const size = Math.ceil(paths.length / PARTS);
      const mine = everyPage ? paths.slice(part * size, (part + 1) * size) : paths.filter(roleSensitive);
      expect(mine.length).toBeGreaterThan(3);
      await signInAs(page, role as HumanRole);
      const candidate = paths.find((p) => p.startsWith("/candidates/"))!;
      // Outside the full run the other roles open their pages on a phone only: the laptop layout of the same page
      // differs by no role-gated element the admin's pass at 1440 px has not seen.
      const problems = await sweep(
        page,
        mine,
        (path, width) => (FULL ? true : role === "admin" ? (width === 390 && axeEveryRun(path)) || axeAt1440(path, candidate) : path === "/approvals" || path === candidate),
        FULL || role === "admin" ? WIDTHS : [390],
      );
      expect(problems).toEqual([]);
    });
  }
}

test("on a phone the sidebar is a menu: it opens, names every section and closes on navigation", async ({ page }) => {
  await signInAs(page, "release_approver");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/candidates");
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await page.getByRole("button", { name: "Menu" }).click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu.getByRole("link", { name: "Approvals" })).toBeVisible();
  await expect(menu.getByTestId("user-name")).toBeVisible();
  await menu.getByRole("link", { name: "Approvals" }).click();
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(menu).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
});
