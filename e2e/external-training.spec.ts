// An Agent Lightning training watched from the store alone: a foreign algorithm writes two resources versions and
// rollouts with reward spans over the real REST API (/v1/agl with an algorithm key), and /training lists it beside
// Lightgate's runs (the source filter in the URL), its page shows the versions with their changes and the curves at
// 390 and 1440 px without sideways scroll, refreshes by itself when a third version arrives, and unknown ids are 404.
// Rollouts are started directly (POST /rollouts with a worker id), never through the queue other specs share.
import { makeApiKey } from "./helpers/seed";
import { expect, test, type Page } from "@playwright/test";
import { AglClient, rolloutConfig } from "../tests/helpers/agl-client";
import { signInAs } from "./helpers/auth";
import { wireSpan } from "./helpers/store-seed";

const E2E_DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const LINEAGE = `e2e-apo-${Date.now().toString(36)}`;
const href = `/training/external/${encodeURIComponent(LINEAGE)}`;
let client: AglClient;

const prompt = (v: number) => ({ prompt: { resource_type: "prompt_template", template: `Answer briefly. (v${v})`, engine: "f-string" } });

/** One rollout of the lineage run by `worker`: a reward span (none when null), then the attempt's end. */
async function rollout(mode: "train" | "val", worker: string, reward: number | null, status: "succeeded" | "failed" = "succeeded") {
  const r = await client.startRollout({ task: `${mode} ${Math.random()}` }, { mode, resources_id: LINEAGE, worker_id: worker, config: rolloutConfig({ max_attempts: 1 }) });
  await finish(r.rollout_id, r.attempt.attempt_id, reward, status);
  return r.rollout_id as string;
}

async function finish(rolloutId: string, attemptId: string, reward: number | null, status: "succeeded" | "failed") {
  if (reward !== null) await client.addSpan(wireSpan(rolloutId, attemptId, "reward", null, Date.now() / 1000 - 1, 0, 0.1, { attributes: { "agentlightning.reward.0.value": reward } }));
  await client.updateAttempt(rolloutId, attemptId, { status });
}

const tick = () => new Promise((r) => setTimeout(r, 20));

test.beforeAll(async () => {
  const token = await makeApiKey(E2E_DB, "algorithm", "e2e-external-training");
  if (!token) throw new Error("no API key printed");
  client = new AglClient(test.info().project.use.baseURL!, { authorization: `Bearer ${token}` });
  await client.updateResources(LINEAGE, prompt(1));
  await tick();
  // Version 1: train 0.25; a train rollout that fails, is retried by hand on another runner and earns 0.75; validation 0.5.
  await rollout("train", "e2e-apo-worker-a", 0.25);
  const failed = await rollout("train", "e2e-apo-worker-a", null, "failed");
  const retry = await client.startAttempt(failed, "e2e-apo-worker-b");
  await finish(failed, retry.attempt.attempt_id, 0.75, "succeeded");
  await rollout("val", "e2e-apo-worker-a", 0.5);
  await tick();
  await client.updateResources(LINEAGE, prompt(2));
  await tick();
  // Version 2: train 1.0, validation 0.75.
  await rollout("train", "e2e-apo-worker-c", 1);
  await rollout("val", "e2e-apo-worker-c", 0.75);
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, "viewer");
});

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

for (const width of [390, 1440] as const) {
  test(`/training lists the external training beside Lightgate's runs, filtered by source in the URL (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/training?xq=${encodeURIComponent(LINEAGE)}`);
    await expect(page.getByTestId("lightgate-runs")).toBeVisible();
    const external = page.getByTestId("external-trainings-table");
    await expect(external.getByRole("link", { name: LINEAGE })).toBeVisible();
    // The newest version's train (1.000) and validation (0.750) reward.
    await expect(external.getByRole("row").filter({ hasText: LINEAGE })).toContainText("1.000");
    await expect(external.getByRole("row").filter({ hasText: LINEAGE })).toContainText("0.750");
    await noSidewaysScroll(page);

    await page.getByRole("tab", { name: "Agent Lightning" }).click();
    await expect(page).toHaveURL(/source=agent-lightning/);
    await expect(page.getByTestId("lightgate-runs")).toHaveCount(0);
    await expect(external.getByRole("link", { name: LINEAGE })).toBeVisible();
    await page.getByRole("tab", { name: "Lightgate runs" }).click();
    await expect(page).toHaveURL(/source=lightgate/);
    await expect(page.getByTestId("external-trainings")).toHaveCount(0);
    // The URL alone reproduces the view.
    await page.goto("/training?source=agent-lightning");
    await expect(page.getByTestId("lightgate-runs")).toHaveCount(0);
    await expect(page.getByTestId("external-trainings")).toBeVisible();
  });

  test(`an external training's page: versions with their changes, curves, runners, live (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/training?source=agent-lightning&xq=" + encodeURIComponent(LINEAGE));
    await page.getByTestId("external-trainings-table").getByRole("link", { name: LINEAGE }).click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    const versions = page.getByTestId("external-versions");
    await expect(versions.locator("tbody > tr")).toHaveCount(2);
    const v2 = versions.locator("tbody > tr").filter({ hasText: "v2" });
    // Train reward 1.000 against v1's 0.500 (0.25 and the retried 0.75); validation 0.750 against 0.500.
    await expect(v2).toContainText("1.000");
    await expect(v2).toContainText("Δ +0.500");
    await expect(v2).toContainText("Δ +0.250");
    // v1: one of its three rollouts was retried (by hand, after its only attempt failed); v2 none.
    const v1 = versions.locator("tbody > tr").filter({ hasText: "v1" });
    await expect(v1).toContainText("33.3%");
    await expect(page.getByTestId("reward-by-version")).toBeVisible();
    await expect(page.getByTestId("reward-over-time")).toBeVisible();
    await expect(page.getByTestId("throughput")).toBeVisible();
    await expect(page.getByTestId("external-runners")).toContainText("e2e-apo-worker-c");
    await expect(page.getByTestId("external-runners")).not.toContainText("e2e-apo-worker-a");
    await noSidewaysScroll(page);

    // A new version and its rollout show up without a reload.
    if (width === 1440) {
      await client.updateResources(LINEAGE, prompt(3));
      await tick();
      await rollout("train", "e2e-apo-worker-d", 0.5);
      await expect(versions.locator("tbody > tr")).toHaveCount(3, { timeout: 15_000 });
      await expect(page.getByTestId("external-runners")).toContainText("e2e-apo-worker-d");
    }
  });
}

test("unknown and hostile ids are a 404 page, never an error", async ({ page }) => {
  // (The 10 KB id is refused by the procedure in tests/integration/training/external-trainings.test.ts; a URL that long
  // would meet the server's header limit before the page.)
  for (const id of ["__proto__", "no-such-lineage", "a/b?c#d%", "x".repeat(2_000)]) {
    const res = await page.goto(`/training/external/${encodeURIComponent(id)}`);
    expect(res?.status(), id.slice(0, 40)).toBe(404);
  }
});
