// Sweeps from the browser: a trainer starts a grid sweep from the form; a real trainer worker process
// (scripts/worker.ts against this server's database) executes its runs like any others; the sweep page
// ranks the configs with an interval over the seeds and overlays their runs, which the compare page shows too.
import { spawn, type ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { stopOpenRuns } from "../tests/helpers/stop-open-runs";
import { signInAs } from "./helpers/auth";

const DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
let worker: ChildProcess | null = null;

test.afterAll(() => {
  worker?.kill("SIGTERM");
});

test("a trainer sweeps a grid × seeds; a worker runs them; the page ranks the configs with intervals and overlays their runs", async ({ page }) => {
  test.setTimeout(300_000);
  await signInAs(page, "trainer");
  await page.goto("/training");
  await page.getByRole("link", { name: "Sweeps", exact: true }).click();
  await page.getByRole("link", { name: "New sweep" }).click();
  await expect(page.getByRole("heading", { name: "New sweep", level: 1 })).toBeVisible();
  await page.locator("#sweep-base-family").selectOption("curriculum");
  await page.locator("#sweep-base-config").fill('{ "episodesPerUpdate": 8, "calibrationTasks": 60 }');
  await page.locator("#sweep-base-updates").fill("2");
  await page.getByLabel("Seeds per config").fill("2");
  await page.getByLabel("Validation tasks").fill("20");
  await page.getByLabel("Config path").fill("ppo.learningRate");
  await page.getByLabel("Values (comma-separated)").fill("0.05, 0.2");
  await page.getByRole("button", { name: "Start sweep (2 configs × 2 seeds = 4 runs)" }).click();

  await expect(page).toHaveURL(/\/training\/sweeps\/swp-[\w-]+$/);
  const ranking = page.getByTestId("sweep-ranking");
  await expect(ranking.getByRole("row")).toHaveCount(3);
  await expect(ranking).toContainText("ppo.learningRate=0.05");
  await expect(ranking.getByTestId("run-status").first()).toContainText("queued");

  // The runs are ordinary training runs: a worker process picks them up, and the page follows live. It works
  // through the queue in order, so runs other specs left open are set aside first: this worker is the sweep's.
  const sweepId = page.url().split("/").at(-1)!;
  const database = await openDatabase(resolveDbTarget(DB));
  try {
    const ours = (await database.db.trainingSweepRun.findMany({ where: { sweepId }, select: { runId: true } })).map((r) => r.runId);
    expect(ours).toHaveLength(4);
    await stopOpenRuns(database, { id: { notIn: ours } }, "the sweeps spec");
  } finally {
    await database.close();
  }
  worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts", "--id", "e2e-sweeper", "--quiet", "--poll-ms", "200"], { env: { ...process.env, DATABASE_URL: DB, LIGHTGATE_PARENT_PID: String(process.pid) }, stdio: ["ignore", "ignore", "inherit"] });
  await expect(page.getByText("4 / 4")).toBeVisible({ timeout: 240_000 });
  await expect(ranking.getByRole("row").nth(1)).toContainText(/^1ppo\.learningRate=[\d.]+-?\d\.\d{3} \(-?\d\.\d{3} … -?\d\.\d{3}\)n = 2/);
  await expect(page.getByTestId("sweep-intervals")).toBeVisible();
  // Best and worst overlaid by default: 2 configs × 2 seeds.
  await expect(page.getByTestId("overlay-legend").getByRole("listitem")).toHaveCount(4);

  await page.getByRole("link", { name: "Open in compare" }).click();
  await expect(page).toHaveURL(/\/training\/compare\?runs=run-/);
  await expect(page.getByTestId("overlay-legend").getByRole("listitem")).toHaveCount(4);
  await expect(page.getByTestId("runs-overlay")).toContainText("ppo.learningRate=");

  await page.goto("/training/sweeps");
  await expect(page.getByTestId("sweeps-table")).toContainText("curriculum: ppo.learningRate (grid)");
  await expect(page.getByTestId("sweeps-table")).toContainText("4 / 4");
});

test("a viewer sees sweeps but cannot start one", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/training/sweeps/new");
  await expect(page.getByText('Starting a sweep needs the "training:run" scope').first()).toBeVisible();
  await expect(page.getByTestId("sweep-submit")).toBeDisabled();
});
