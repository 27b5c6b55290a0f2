// The store's dashboard pages against data seeded through the real REST API (/v1/agl with an API key):
// rollout filters in the URL, attempt reasons, the span tree and waterfall, the resources diff with
// api_key masked, runners, and live refresh picking up a rollout enqueued after the page loaded.
import fs from "node:fs";
import { makeApiKey } from "./helpers/seed";
import { expect, test, type Page } from "@playwright/test";
import { AglClient } from "../tests/helpers/agl-client";
import { signInAs } from "./helpers/auth";
import { seedBigRollout, seedStore, type Seeded } from "./helpers/store-seed";

const E2E_DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const SEED_FILE = ".tmp/e2e/store-pages-seed.json";
let client: AglClient;
let seeded: Seeded;

test.beforeAll(async () => {
  // An algorithm API key in the server's database, sent as a Bearer token like a real client's.
  const token = await makeApiKey(E2E_DB, "algorithm", "e2e-store-pages");
  if (!token) throw new Error("no API key printed");
  client = new AglClient(test.info().project.use.baseURL!, { authorization: `Bearer ${token}` });
  // Seeded once per server (a failed test restarts the worker and runs this again; the seed needs an empty queue).
  if (fs.existsSync(SEED_FILE)) seeded = JSON.parse(fs.readFileSync(SEED_FILE, "utf8")) as Seeded;
  else {
    seeded = await seedStore(client);
    fs.writeFileSync(SEED_FILE, JSON.stringify(seeded));
  }
});

test.beforeEach(async ({ page }) => {
  await signInAs(page, "viewer");
});

const rows = (page: Page) => page.getByTestId("rollouts-table").locator("tbody > tr");

test("rollouts filter by status and mode in the URL, and a row expands to its attempts' reasons", async ({ page }) => {
  await page.goto("/rollouts");
  await expect(page.getByTestId("rollouts-table").getByText(seeded.val2)).toBeVisible();
  await expect(page.getByTestId("rollouts-table").getByText(seeded.retried)).toBeVisible();

  await page.getByRole("group", { name: "status filter" }).getByRole("button", { name: /^succeeded/ }).click();
  await page.getByRole("group", { name: "mode filter" }).getByRole("button", { name: /^train/ }).click();
  await expect(page).toHaveURL(/status=succeeded/);
  await expect(page).toHaveURL(/mode=train/);
  await expect(page.getByTestId("rollouts-table").getByText(seeded.val1)).toHaveCount(0);
  await expect(page.getByTestId("rollouts-table").getByText(seeded.val2)).toHaveCount(0);
  await expect(page.getByTestId("rollouts-table").getByText(seeded.retried)).toBeVisible();
  await expect(page.getByTestId("rollouts-table").getByText(seeded.trainQueued)).toBeVisible();

  // The URL alone reproduces the view.
  // (Other specs share this server's store, so assert on the seeded rollouts, not on the row count.)
  await page.goto(`/rollouts?status=succeeded&mode=val`);
  await expect(page.getByTestId("rollouts-table").getByText(seeded.val1)).toBeVisible();
  await expect(page.getByTestId("rollouts-table").getByText(seeded.val2)).toHaveCount(0);
  await expect(page.getByTestId("rollouts-table").getByText(seeded.retried)).toHaveCount(0);

  await page.goto(`/rollouts?q=${seeded.retried}`);
  await expect(rows(page)).toHaveCount(1);
  await page.getByRole("button", { name: "expand row" }).click();
  const attempts = page.getByTestId("attempts-panel");
  await expect(attempts.getByTestId("attempt-row")).toHaveCount(2);
  await expect(attempts.getByTestId("attempt-row").nth(0)).toContainText("first try");
  await expect(attempts.getByTestId("attempt-row").nth(0)).toContainText("failed");
  await expect(attempts.getByTestId("attempt-row").nth(0)).toContainText("runner-a");
  await expect(attempts.getByTestId("attempt-row").nth(1)).toContainText("retry after failed");
  await expect(attempts.getByTestId("attempt-row").nth(1)).toContainText("runner-b");
  await attempts.getByTestId("attempt-row").nth(0).getByRole("link", { name: "spans" }).click();
  await expect(page).toHaveURL(new RegExp(`/traces\\?rollout=${seeded.retried}&attempt=${seeded.firstAttempt}`));
});

test("traces show the span tree with nesting and a waterfall, a selected span's attributes, and a table", async ({ page }) => {
  await page.goto(`/traces?rollout=${seeded.retried}&attempt=${seeded.firstAttempt}`);
  const tree = page.getByTestId("span-waterfall");
  const spanRows = tree.getByTestId("span-row");
  await expect(spanRows).toHaveCount(5);
  await expect(spanRows.nth(0)).toHaveAttribute("data-depth", "0");
  await expect(spanRows.nth(0)).toContainText("agent.run");
  await expect(spanRows.nth(1)).toHaveAttribute("data-depth", "1");
  await expect(spanRows.nth(1)).toContainText("llm.call");
  await expect(spanRows.nth(2)).toHaveAttribute("data-depth", "2");
  await expect(spanRows.nth(2)).toContainText("tool.call:search");
  await expect(tree.getByTestId("span-bar")).toHaveCount(5);
  // Bars sit on one time axis: the child starts right of its parent's start.
  const rootBox = (await tree.getByTestId("span-bar").nth(0).boundingBox())!;
  const toolBox = (await tree.getByTestId("span-bar").nth(2).boundingBox())!;
  expect(toolBox.x).toBeGreaterThan(rootBox.x);
  expect(toolBox.width).toBeLessThan(rootBox.width);

  await page.getByRole("button", { name: "collapse llm.call" }).first().click();
  await expect(spanRows).toHaveCount(4);
  await page.getByRole("button", { name: "expand llm.call" }).click();
  await expect(spanRows).toHaveCount(5);

  await spanRows.nth(2).click();
  await expect(page).toHaveURL(new RegExp(`span=${seeded.firstAttempt}%2F${seeded.firstSpans.tool.span_id}`));
  const detail = page.getByTestId("span-detail");
  await expect(detail).toContainText("search backend timed out");
  await expect(detail).toContainText("refund policy");
  await expect(detail).toContainText("retrieved");

  // The shared link restores the selection; the table view lists the same spans.
  await page.goto(page.url() + "&view=table");
  await expect(page.getByTestId("span-detail")).toContainText("search backend timed out");
  await expect(page.getByTestId("span-table").locator("tbody > tr")).toHaveCount(5);
  await page.getByLabel("span name filter").fill("tool");
  await expect(page).toHaveURL(/name=tool/);
  await expect(page.getByTestId("span-table").locator("tbody > tr")).toHaveCount(1);
});

test("a 1,000-span rollout opens fast: only the visible rows are in the page, and scrolling reaches the last span", async ({ page }) => {
  const big = await seedBigRollout(client, 1000);
  const started = Date.now();
  await page.goto(`/traces?rollout=${big.rid}`);
  const tree = page.getByTestId("span-waterfall");
  await expect(tree).toContainText("1,000 spans");
  const openedMs = Date.now() - started;
  const rendered = await tree.getByTestId("span-row").count();
  expect(rendered).toBeGreaterThan(10);
  expect(rendered).toBeLessThan(80);
  await page.getByRole("tree", { name: "span tree" }).evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(tree.getByTestId("span-row").last()).toContainText("tool.call:step9");
  console.log(`1,000-span waterfall: opened in ${openedMs} ms (navigation included), ${rendered} rows in the DOM`);
});

test("resources diff two versions key by key and mask api_key", async ({ page }) => {
  await page.goto("/resources");
  await page.getByRole("button", { name: seeded.resourcesId }).click();
  await expect(page).toHaveURL(new RegExp(`rid=${seeded.resourcesId}`));
  const diff = page.getByTestId("resources-diff");
  const model = diff.getByTestId("diff-row").filter({ hasText: "main_llm.model" });
  await expect(model).toContainText("changed");
  await expect(model).toContainText('"qwen2.5-7b"');
  await expect(model).toContainText('"qwen2.5-7b-ft"');
  await expect(diff.getByTestId("diff-row").filter({ hasText: "main_llm.sampling_parameters.top_p" })).toContainText("added");
  await expect(diff.getByTestId("diff-row").filter({ hasText: "main_llm.api_key" })).toContainText("••••••••");
  await expect(diff.getByTestId("diff-row").filter({ hasText: "system_prompt" })).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText("sk-live");
  // Picking v2 → v1 reverses the comparison.
  // (Controlled by the URL: the radio turns on once the URL has changed.)
  await page.getByLabel("from v2").click();
  await expect(page.getByLabel("from v2")).toBeChecked();
  await page.getByLabel("to v1").click();
  await expect(page.getByLabel("to v1")).toBeChecked();
  await expect(page).toHaveURL(/from=2/);
  await expect(page.getByText("Diff v2 → v1")).toBeVisible();
  await expect(model).toContainText("changed");
});

test("runners show status, heartbeat age, current attempt and heartbeat stats", async ({ page }) => {
  await client.updateWorker("runner-c", { cpu_percent: 88, gpu_memory_gb: 14.1, rollouts_done: 0 }); // a fresh heartbeat
  await page.goto("/runners");
  const table = page.getByTestId("runners-table");
  const c = table.locator("tbody > tr").filter({ hasText: "runner-c" });
  await expect(c).toContainText("busy");
  await expect(c).toContainText(seeded.busy);
  await expect(c).toContainText("cpu_percent=88");
  await expect(c.getByTestId("heartbeat-age")).toHaveText(/^\d+ s ago$|^just now$/);
  await expect(page.getByTestId("runner-counts")).toContainText("Busy");
});

test("live refresh shows a rollout enqueued after the page loaded, without a reload", async ({ page }) => {
  await page.goto("/rollouts?mode=test");
  await expect(page.getByTestId("rollouts-table").getByText(seeded.testOne)).toBeVisible();
  await page.getByRole("button", { name: "Live off" }).click();
  await expect(page).toHaveURL(/live=5/);
  await page.getByLabel("refresh interval").selectOption("2");
  await expect(page).toHaveURL(/live=2/);
  await expect(page.getByTestId("updated-ago")).toHaveText(/updated \d+ s ago/);
  const fresh = await client.enqueueRollout({ task: "arrived later" }, { mode: "test" });
  await expect(page.getByTestId("rollouts-table").getByText(fresh.rollout_id)).toBeVisible({ timeout: 8_000 });
  // Turned off, new rollouts wait for a manual refresh.
  await page.getByRole("button", { name: "Live", exact: true }).click();
  await expect(page).not.toHaveURL(/live=/);
  const later = await client.enqueueRollout({ task: "arrived while paused" }, { mode: "test" });
  await page.waitForTimeout(3_000);
  await expect(page.getByTestId("rollouts-table").getByText(later.rollout_id)).toHaveCount(0);
  await page.getByRole("button", { name: "refresh now" }).click();
  await expect(page.getByTestId("rollouts-table").getByText(later.rollout_id)).toBeVisible();
});
