// Training from the browser: a trainer starts a PPO run from the form; a real trainer worker and two real
// runner processes (the worked example: scripts/worker.ts + scripts/runner.ts against this server) execute
// it; the run page's progress and curve move without a reload; the candidate appears and links to its page.
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { createApiKey } from "@/server/auth/api-keys";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { signInAs } from "./helpers/auth";
import { shoot } from "./helpers/shoot";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const helpers: ChildProcess[] = [];

function helper(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { env: { ...process.env, DATABASE_URL: DB, LIGHTGATE_PARENT_PID: String(process.pid), ...env }, stdio: ["ignore", "ignore", "inherit"] });
  helpers.push(child);
}

test.beforeAll(async () => {
  // Straight into the server's database (the apikey CLI would also try to migrate it while the server runs).
  const database = await openDatabase(resolveDbTarget(DB));
  const key = (await createApiKey(database.db, { name: "e2e runners", role: "runner" })).token;
  await database.close();
  helper("scripts/worker.ts", ["--id", "e2e-trainer", "--quiet", "--poll-ms", "200"], {});
  for (const i of [1, 2]) helper("scripts/runner.ts", ["--url", `http://127.0.0.1:${PORT}`, "--id", `e2e-runner-${i}`, "--quiet"], { LIGHTGATE_RUNNER_KEY: key });
});

test.afterAll(() => {
  for (const c of helpers) c.kill("SIGTERM");
});

test("a trainer starts a named, tagged PPO run from the form, watches the monitor live, renames and re-tags it, restores a checkpoint, sorts the list and compares both", async ({ page }) => {
  test.setTimeout(300_000);
  await signInAs(page, "trainer");
  await page.goto("/training");
  await page.getByRole("link", { name: "Start a run" }).click();
  await expect(page.getByRole("heading", { name: "Start a training run" }).first()).toBeVisible();
  await page.getByLabel("Family").selectOption("ppo");
  // Name, tags and agent at the start (the agent defaults to the built-in support desk).
  await expect(page.getByLabel("Agent")).toHaveValue("support-desk");
  await page.getByLabel("Name", { exact: true }).fill("e2e start");
  await page.getByLabel("Tags (comma-separated)").fill("E2E, start");
  // The options form is generated from PPO's schema: each option says what it does and what it accepts, choices
  // are a list; a bad value is named at its field and blocks the start.
  await expect(page.locator("#opt-clipRange-note")).toHaveText(/PPO's ε.*Number, > 0 and ≤ 1/);
  await expect(page.locator("#opt-epochs-note")).toContainText("Integer, 1 – 100");
  await expect(page.locator("#opt-optimizer option")).toHaveText(["adam", "sgd"]);
  await page.locator("#opt-clipRange").fill("-1");
  await expect(page.getByText(/clipRange must be/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Start run" })).toBeDisabled();
  await page.locator("#opt-clipRange").fill("0.2");
  await page.locator("#opt-episodesPerUpdate").fill("16");
  await page.getByLabel("Updates").fill("20");
  await page.getByLabel("Seed").fill("e2e-seed");
  await expect(page.getByRole("button", { name: "Start run" })).toBeEnabled();
  await page.getByRole("button", { name: "Start run" }).click();

  await expect(page).toHaveURL(/\/training\/run-/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("e2e start");
  await expect(page.getByTestId("run-labels").getByRole("link", { name: "#start" })).toBeVisible();
  const progress = page.getByRole("progressbar", { name: "Updates done" });
  // Live: the progress bar and the curve advance while we watch, with no reload.
  await expect.poll(async () => Number(await progress.getAttribute("aria-valuenow")), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const first = Number(await page.getByTestId("reward-curve").getAttribute("data-points"));
  await expect.poll(async () => Number(await page.getByTestId("reward-curve").getAttribute("data-points")), { timeout: 60_000 }).toBeGreaterThan(first);
  // The monitor, live: PPO diagnostics charted, stop conditions with their current values, at both widths.
  await expect(page.getByTestId("ppo-diagnostics").locator("[data-diagnostic]")).toHaveCount(5);
  await expect(page.getByTestId("stop-conditions").locator('[data-condition="max-updates"]')).toContainText("20 updates");
  await shoot(page, "training-monitor-live", ".tmp/screens/monitor");
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 90_000 });
  await expect(page.getByTestId("run-status-line")).toContainText("finished all 20 updates at");
  const candidate = page.getByTestId("run-candidates").getByRole("link");
  await expect(candidate).toHaveAttribute("href", /^\/candidates\/cand-/);
  await expect(page.getByText("Span coverage so far")).toBeVisible();
  await expect(page.getByTestId("stop-conditions").locator('[data-condition="max-updates"]')).toHaveAttribute("data-state", "ended");
  const sourceUrl = page.url();

  // Name and tags, edited in place; the list filters by the tag.
  await page.getByRole("button", { name: "Edit name and tags" }).click();
  await page.getByRole("textbox", { name: "Name" }).fill("e2e baseline");
  await page.getByLabel("Tags (comma-separated)").fill("E2E, baseline");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("e2e baseline");
  await expect(page.getByTestId("run-labels").getByRole("link", { name: "#e2e" })).toBeVisible();

  // Restore from the checkpoint at update 5: a new run that continues from there; the source stays finished.
  await expect(page.getByTestId("checkpoints").locator("li")).toHaveCount(4); // updates 20, 15, 10 and 5
  await page.getByRole("button", { name: "Restore from the checkpoint at update 5" }).click();
  await page.getByLabel("Update budget of the new run").fill("12");
  await page.getByRole("button", { name: "Restore into a new run" }).click();
  await expect(page).not.toHaveURL(sourceUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("e2e baseline @ update 5");
  await expect(page.getByTestId("run-labels")).toContainText("restored from");
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 90_000 });
  await expect(page.getByRole("progressbar", { name: "Updates done" })).toHaveAttribute("aria-valuenow", "12");

  // Sort the list by a metric column: the sort goes into the URL and the server orders the rows.
  await page.goto("/training?tag=e2e");
  await page.getByRole("button", { name: "Best validation" }).click();
  await expect(page).toHaveURL(/[?&]sort=best_reward&dir=desc/);
  await expect(page.getByRole("columnheader", { name: "Best validation" })).toHaveAttribute("aria-sort", "descending");
  await expect(page.getByTestId("runs-table").getByTestId("retry-debt").first()).toBeVisible();

  // Compare both: tick them in the list (filtered by the tag both carry), open the comparison.
  const rows = page.getByTestId("runs-table").getByRole("checkbox");
  await expect(rows).toHaveCount(2);
  await rows.nth(0).check();
  await rows.nth(1).check();
  await page.getByTestId("compare-picked").click();
  await expect(page.getByTestId("overlay-legend").locator("li")).toHaveCount(2);
  // A second metric from what PPO records: one chart per metric, in the URL.
  await page.getByTestId("metric-picker").getByLabel("Entropy").check();
  await expect(page).toHaveURL(/[?&]metrics=validation%2Centropy|[?&]metrics=validation,entropy/);
  await expect(page.getByTestId("metric-charts").locator("[data-metric]")).toHaveCount(2);
  // The restore kept the config: no key differs.
  await expect(page.getByTestId("config-differing")).toContainText("configs are identical");
  await shoot(page, "training-overlay", ".tmp/screens/monitor");
});

test("a viewer gets no start buttons, the reason in their place, and the start form disabled with the reason", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/training");
  await expect(page.getByRole("link", { name: "Start a run" })).toHaveCount(0);
  await expect(page.getByTestId("start-not-allowed")).toContainText("training:run");
  await page.goto("/training/sweeps");
  await expect(page.getByRole("link", { name: "New sweep" })).toHaveCount(0);
  await expect(page.getByTestId("sweep-not-allowed")).toContainText("training:run");
  await page.goto("/training/new");
  await expect(page.getByTestId("start-disabled")).toContainText("training:run");
  await expect(page.getByRole("button", { name: "Start run" })).toBeDisabled();
});
