// Traces, rollouts and datasets in a real browser on the production build, with data sent through the store's
// REST API as runners send it: the reward and error columns and their URL filters, "failed" said the same way
// on Runners and Rollouts, a trace's reward / tokens / cost and a span's input and output; a trainer makes a
// snapshot from the UI; unknown ids on every dynamic route answer HTTP 404 with the not-found page.
import { makeApiKey } from "./helpers/seed";
import { expect, test, type Page } from "@playwright/test";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { AglClient, rolloutConfig } from "../tests/helpers/agl-client";
import { seedLineageFixture } from "../tests/helpers/dataset-fixture";
import { signInAs } from "./helpers/auth";
import { shoot } from "./helpers/shoot";
import { wireSpan } from "./helpers/store-seed";

const DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const ids = { retried: "", low: "", broken: "" };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const token = await makeApiKey(DB, "algorithm", "e2e-traces");
  const client = new AglClient(test.info().project.use.baseURL!, { authorization: `Bearer ${token}` });
  const t0 = Date.now() / 1000 - 60;
  // Retried: the first attempt fails on an ERROR span, the retry succeeds with reward 0.9 after an LLM call.
  const r = await client.startRollout({ task: "e2e refund" }, { mode: "train", config: rolloutConfig({ max_attempts: 2, retry_condition: ["failed"] }), worker_id: "e2e-runner-a" });
  ids.retried = r.rollout_id;
  await client.addSpan(wireSpan(r.rollout_id, r.attempt.attempt_id, "tool.call:search", null, t0, 0, 1, { status: { status_code: "ERROR", description: "backend down" } }));
  await client.updateAttempt(r.rollout_id, r.attempt.attempt_id, { status: "failed" });
  const again = await client.startAttempt(r.rollout_id, "e2e-runner-b");
  const aid = again.attempt.attempt_id;
  const root = wireSpan(r.rollout_id, aid, "agent.run", null, t0, 2, 10);
  await client.addSpan(root);
  await client.addSpan(wireSpan(r.rollout_id, aid, "llm.call", root.span_id, t0, 3, 2, { attributes: { "gen_ai.request.model": "qwen", "gen_ai.usage.input_tokens": 812, "gen_ai.usage.output_tokens": 96, "gen_ai.prompt.0.content": "Where is my refund?", "gen_ai.completion.0.content": "It was issued today." } }));
  await client.addSpan(wireSpan(r.rollout_id, aid, "agentlightning.annotation", root.span_id, t0, 11, 0.1, { attributes: { "agentlightning.reward.0.name": "episode_reward", "agentlightning.reward.0.value": 0.9 } }));
  await client.updateAttempt(r.rollout_id, aid, { status: "succeeded" });
  // Low: succeeds with reward 0.1. Broken: fails for good.
  const low = await client.startRollout({ task: "e2e address" }, { mode: "train", worker_id: "e2e-runner-a" });
  ids.low = low.rollout_id;
  await client.addSpan(wireSpan(low.rollout_id, low.attempt.attempt_id, "agentlightning.annotation", null, t0, 1, 0.1, { attributes: { "agentlightning.reward.0.value": 0.1 } }));
  await client.updateAttempt(low.rollout_id, low.attempt.attempt_id, { status: "succeeded" });
  const broken = await client.startRollout({ task: "e2e delete" }, { mode: "val", worker_id: "e2e-runner-b" });
  ids.broken = broken.rollout_id;
  await client.updateAttempt(broken.rollout_id, broken.attempt.attempt_id, { status: "failed", metadata: { "lightgate.failure": "runner error: tool hung" } });
  const database = await openDatabase(resolveDbTarget(DB));
  try {
    if (!(await database.db.datasetSnapshot.count())) await seedLineageFixture(database, "e2e/traces");
  } finally {
    await database.close();
  }
});


const row = (page: Page, id: string) => page.getByTestId("rollouts-table").locator("tbody > tr").filter({ hasText: id });

test("rollouts show reward and error, filter by reward range and error in the URL, and say what failed counts", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/rollouts");
  await expect(row(page, ids.retried).getByTestId("reward")).toHaveText("0.900");
  await expect(row(page, ids.low).getByTestId("reward")).toHaveText("0.100");
  await expect(row(page, ids.broken).getByTestId("rollout-error")).toHaveText("attempt failed: runner error: tool hung");
  const counts = page.getByTestId("failed-counts");
  await expect(counts).toContainText(/\d+ rollouts? failed/);
  const rolloutsSays = (await counts.textContent())!;

  await page.getByLabel("reward at least").fill("0.5");
  await expect(page).toHaveURL(/rmin=0.5/);
  await expect(row(page, ids.retried)).toHaveCount(1);
  await expect(row(page, ids.low)).toHaveCount(0);
  await expect(row(page, ids.broken)).toHaveCount(0);
  await shoot(page, "rollouts-reward-filter");

  await page.goto("/rollouts?error=yes");
  await expect(row(page, ids.broken)).toHaveCount(1);
  await expect(row(page, ids.retried)).toHaveCount(0);

  await page.goto("/runners");
  const runners = page.getByTestId("failed-counts");
  // The same two figures on both pages, each named for what it counts.
  const attempts = rolloutsSays.match(/(\d+) attempts failed/)![1];
  const failedRollouts = rolloutsSays.match(/(\d+) rollouts? failed/)![1];
  await expect(runners).toContainText(`${attempts} attempts failed`);
  await expect(runners).toContainText(`${failedRollouts} rollout`);
  await expect(page.getByTestId("runners-table").locator("tbody > tr").filter({ hasText: "e2e-runner-a" })).toContainText(/1 of \d+/);
  await shoot(page, "runners-failed");
});

test("a trace shows reward, tokens and cost per attempt, and a span its input and output", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto(`/traces?rollout=${ids.retried}&attempt=latest`);
  const summary = page.getByTestId("trace-summary");
  await expect(summary).toContainText("0.900");
  await expect(summary).toContainText("812 / 96");
  await page.goto(`/traces?rollout=${ids.retried}`);
  await expect(summary).toContainText("Error spans1");
  await page.getByTestId("span-row").filter({ hasText: "llm.call" }).first().click();
  const io = page.getByTestId("span-io");
  await expect(io).toContainText("812 in · 96 out");
  await expect(io).toContainText("Where is my refund?");
  await expect(io).toContainText("It was issued today.");
  await shoot(page, "trace-summary");
});

test("a trainer makes a snapshot from another through the UI; a viewer cannot", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/datasets/new");
  await expect(page.getByTestId("create-disabled")).toContainText("training:run");
  await signInAs(page, "trainer");
  await page.goto("/datasets");
  await page.getByRole("link", { name: "New snapshot" }).click();
  await page.locator("#snapshot-name").fill("e2e/ui-derived");
  await page.locator("#snapshot-source").selectOption("snapshot");
  await page.getByLabel("Augment").check();
  await shoot(page, "dataset-new");
  await page.getByTestId("create-snapshot").click();
  await expect(page).toHaveURL(/\/datasets\/ds-[0-9a-f]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("e2e/ui-derived v1");
  await expect(page.getByTestId("pipeline-table")).toContainText("augment");
});

test("unknown ids on every dynamic route answer 404 with the not-found page", async ({ page }) => {
  await signInAs(page, "viewer");
  for (const path of ["/candidates/cand-nope", "/datasets/ds-nope", "/evaluations/ev-nope", "/training/run-nope", "/training/sweeps/swp-nope", "/registries/evaluator/nope", "/registries/not-a-kind/x", "/registries/held_out/a%2Fb"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByTestId("not-found"), path).toContainText("Nothing here by that name");
  }
  await shoot(page, "not-found");
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
});
