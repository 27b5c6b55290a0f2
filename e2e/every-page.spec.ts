// The page sweep: every page of the dashboard (e2e/helpers/pages.ts finds them on disk) as each demo role,
// on a phone (390 × 844) and a laptop (1440 × 900): no page scrolls sideways, nothing is written to the
// console as an error, and axe finds no serious or critical accessibility violation. One browser context per
// role (the viewer and the admin open every page; the other roles the pages their scopes change); each page
// is loaded once at 390 px and then widened. axe, the slow part, runs on every page at 390 px
// as the admin (who sees every page), at 1440 px on the pages whose desktop layout differs most, and on the
// approval and candidate pages — which differ by role — as every role.
import { execFileSync } from "node:child_process";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { HUMAN_ROLES, type HumanRole } from "@/lib/auth/scopes";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { seedLineageFixture } from "../tests/helpers/dataset-fixture";
import { signInAs } from "./helpers/auth";
import { dashboardPaths, PUBLIC_ROUTES } from "./helpers/pages";

const DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const WIDTHS = [390, 1440] as const;
/** Where axe also runs at 1440 px as the admin (the shell's sidebar, a candidate page, the inbox). */
const axeAt1440 = (path: string, candidate: string) => path === "/" || path === "/approvals" || path === candidate;

let paths: string[] = [];

/** Every kind of record a dynamic page shows exists (the sweep must not depend on which specs ran before). */
test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  execFileSync("npx", ["tsx", "scripts/gate/reference.ts", "--seed"], { env: { ...process.env, DATABASE_URL: DB }, encoding: "utf8" });
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
    if (!(await database.db.evaluationJob.count())) {
      await mutate("evaluations.start", { name: "page sweep", subject: { kind: "family", family: "supervised", config: { maxEpochs: 1 } }, protocols: ["held-out"], heldOutSize: 60 });
    }
    if (!(await database.db.trainingSweep.count())) {
      const space = { mode: "grid", params: [{ kind: "values", path: "ppo.learningRate", values: [0.05, 0.2] }] };
      await mutate("sweeps.start", { name: "page sweep", family: "curriculum", baseConfig: { episodesPerUpdate: 8, calibrationTasks: 60 }, space, seedsPerConfig: 1, updates: 1, heldOutCases: 20 });
    }
    // The pages need these records to exist, not to be trained: nothing is left queued for a later spec's worker
    // (the sweeps spec waits for its own runs behind whatever is queued).
    const unrun = { status: "failed", statusReason: "created for the page sweep only; not trained" };
    await database.db.trainingRun.updateMany({ where: { status: { in: ["queued", "running"] }, createdAt: { gte: sweepStarted } }, data: unrun });
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
async function sweep(page: Page, list: readonly string[], axe: (path: string, width: number) => boolean): Promise<string[]> {
  const problems: string[] = [];
  let errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  for (const path of list) {
    errors = [];
    await page.setViewportSize({ width: WIDTHS[0], height: 844 });
    await page.goto(path, { waitUntil: "load" });
    await settle(page);
    for (const width of WIDTHS) {
      if (width !== WIDTHS[0]) {
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

/**
 * Pages whose content depends on the role (its scopes enable forms, buttons and panels). The fewest and the most
 * privileged roles — viewer and admin — open every page; the other roles open these, where they differ.
 */
const roleSensitive = (path: string) => /^\/(candidates\/|approvals|registries|settings|training\/new|training\/sweeps\/new|evaluations\/new|datasets\/new)/.test(path);

for (const role of HUMAN_ROLES) {
  test(`every page as ${role}: no sideways scroll at 390 and 1440 px, no console error, no serious axe violation`, async ({ page }) => {
    test.setTimeout(300_000);
    await signInAs(page, role as HumanRole);
    expect(paths.length).toBeGreaterThan(15);
    const candidate = paths.find((p) => p.startsWith("/candidates/"))!;
    const mine = role === "admin" || role === "viewer" ? paths : paths.filter(roleSensitive);
    expect(mine.length).toBeGreaterThan(3);
    const problems = await sweep(page, mine, (path, width) =>
      role === "admin" ? width === 390 || axeAt1440(path, candidate) : width === 390 && (path === "/approvals" || path === candidate),
    );
    expect(problems).toEqual([]);
  });
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
