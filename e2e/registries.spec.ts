// The policy owner's registries area in a real browser on the production build: the catalog, a record's
// versions, the preview of what a new evaluator version makes stale (the reference candidates, judged by the
// gate), publishing it for another agent, the diff at a shareable URL; an exam published twice and diffed
// case by case; a viewer sees everything and can publish nothing. Screenshots at 1440 and 390 px.
import { seedReference } from "./helpers/seed";
import { expect, test } from "@playwright/test";
import { signInAs } from "./helpers/auth";
import { shoot } from "./helpers/shoot";

const DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const AGENT = "e2e-registry-agent";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await seedReference(DB);
});


test("a policy owner previews a new evaluator (A goes STALE), publishes it for another agent and shares the diff", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, "policy_owner");
  await page.goto("/registries");
  const evaluators = page.getByTestId("kind-evaluator");
  await expect(evaluators).toContainText("support-desk-evaluator");
  await expect(page.getByTestId("kind-promotion_policy")).toBeVisible();
  await shoot(page, "registries");

  await evaluators.getByRole("link", { name: "support-desk-evaluator" }).click();
  await expect(page).toHaveURL(/\/registries\/evaluator\/support-desk-evaluator$/);
  await expect(page.getByTestId("registry-versions")).toContainText("v3");
  const body = page.locator("#publish-body");
  await expect(body).toHaveValue(/"accuracy": 0.1/);
  await body.fill((await body.inputValue()).replace('"accuracy": 0.1', '"accuracy": 0.25'));
  await expect(page.getByTestId("publish-submit")).toBeDisabled();
  await page.getByRole("button", { name: "Preview what goes stale" }).click();
  const impact = page.getByTestId("impact");
  await expect(impact.getByTestId("impact-inputs")).toContainText(/Evaluator: support-desk-evaluator@3#sha256:.* → support-desk-evaluator@4#.* checks 1, 4, 5/);
  const a = impact.getByTestId("impact-candidate").filter({ hasText: "reference A" });
  await expect(a).toContainText("STALE");
  await expect(a).toContainText(/Check 4 ?stale ?→|Check 4 pass → stale/);
  await expect(page.getByTestId("publish-submit")).toHaveText("Publish v4");
  await shoot(page, "registry-preview");
  // Publishing exactly what was previewed: edit anything and the button goes back to "preview first".
  await page.locator("#publish-agent").fill(AGENT);
  await expect(page.getByTestId("publish-submit")).toBeDisabled();
  await page.getByRole("button", { name: "Preview what goes stale" }).click();
  await expect(impact.getByTestId("impact-none")).toContainText("No candidate");
  await page.getByTestId("publish-submit").click();
  await expect(page).toHaveURL(new RegExp(`agent=${AGENT}.*b=1`));
  await expect(page.getByTestId("registry-versions")).toContainText("v1");

  // The reference agent's evaluator is untouched; a diff between two versions is a link.
  await page.locator("#publish-agent").fill(AGENT);
  await body.fill((await body.inputValue()).replace('"accuracy": 0.25', '"accuracy": 0.3'));
  await page.getByRole("button", { name: "Preview what goes stale" }).click();
  await page.getByTestId("publish-submit").click();
  await expect(page).toHaveURL(/a=1&b=2|b=2.*a=1/);
  const shared = page.url();
  await page.goto(shared);
  const diff = page.getByTestId("registry-diff");
  await expect(diff.getByTestId("diff-row")).toHaveCount(1);
  await expect(diff).toContainText("weights.accuracy");
  await expect(diff).toContainText("0.25");
  await expect(diff).toContainText("0.3");
  await shoot(page, "registry-diff");
});

test("exams: a held-out set published twice from the UI and diffed case by case", async ({ page }) => {
  await signInAs(page, "policy_owner");
  await page.goto("/registries/new?kind=held_out");
  const cases = (ids: string[]) => JSON.stringify(ids.map((id) => ({ id, input: { seed: id }, family: "general", expected: { answer: id } })));
  await page.locator("#publish-name").fill(`${AGENT}/held-out`);
  await page.locator("#publish-body").fill(cases(["c1", "c2", "c3"]));
  await page.getByRole("button", { name: "Preview what goes stale" }).click();
  await expect(page.getByTestId("impact")).toContainText("Publishes v1 (3 cases");
  await page.getByTestId("publish-submit").click();
  await expect(page).toHaveURL(/\/registries\/held_out\/e2e-registry-agent%2Fheld-out\?/);
  await page.locator("#publish-body").fill(cases(["c1", "c3", "c4"]));
  await page.getByRole("button", { name: "Preview what goes stale" }).click();
  await expect(page.getByTestId("impact")).toContainText("1 case added and 1 removed against v1");
  await page.getByTestId("publish-submit").click();
  await expect(page.getByTestId("registry-versions")).toContainText("v2");
  const diff = page.getByTestId("registry-diff");
  await expect(diff).toContainText("c2.expected.answer");
  await expect(diff).toContainText("c4.input.seed");
  await shoot(page, "registry-exam");
});

test("a viewer reads every version and diff but the publish form says why it is closed", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/registries");
  await expect(page.getByRole("link", { name: /New evaluator/ })).toHaveCount(0);
  await page.goto("/registries/evaluator/support-desk-evaluator");
  await expect(page.getByTestId("publish-disabled")).toContainText("policy:write");
  await expect(page.getByRole("button", { name: "Preview what goes stale" })).toBeDisabled();
});
