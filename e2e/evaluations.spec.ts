import { expect, test } from "@playwright/test";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { seedLineageFixture } from "../tests/helpers/dataset-fixture";
import { signInAs } from "./helpers/auth";

test("a trainer starts an A/B test from the form; the results page shows the interval, the p-value and significance", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, "trainer");
  await page.goto("/evaluations");
  await page.getByRole("link", { name: "New A/B test" }).click();
  await expect(page.getByRole("heading", { name: "New A/B test", level: 1 })).toBeVisible();
  await page.getByLabel("Name").first().fill("two slow epochs");
  await page.locator("#arm-a-config").fill('{ "learningRate": 0.002, "maxEpochs": 0 }');
  // The family's own schema answers as you type.
  await expect(page.getByText("maxEpochs: maxEpochs must be ≥ 1")).toBeVisible();
  await expect(page.getByRole("button", { name: /Start A\/B test/ })).toBeDisabled();
  await page.locator("#arm-a-config").fill('{ "learningRate": 0.002, "maxEpochs": 2 }');
  await page.locator("#arm-b-name").fill("default");
  await page.getByLabel("Seeds per arm (sample size)").fill("4");
  await page.getByLabel("Evaluation tasks").fill("100");
  await expect(page.getByLabel("Test", { exact: true })).toHaveValue("welch");
  await page.getByLabel("Difference worth detecting").fill("0.1");
  await page.getByRole("button", { name: "Start A/B test (8 training runs)" }).click();

  await expect(page).toHaveURL(/\/evaluations\/ab-[\w-]+$/);
  await expect(page.getByRole("heading", { name: "two slow epochs vs default", level: 1 })).toBeVisible();
  await expect(page.getByTestId("ab-verdict")).toContainText("Significant difference at α = 0.05 (Holm-adjusted over 2 metrics)", { timeout: 90_000 });
  await expect(page.getByTestId("ab-verdict")).toContainText(/default differs from two slow epochs on held-out mean reward \(Δ 0\.\d{3}, 95 % CI 0\.\d{3} … 0\.\d{3}, Welch p = .*, Holm-adjusted p = .* over 2 metrics, n = 4 \+ 4\)/);
  await expect(page.getByTestId("ab-ci")).toHaveText(/^0\.\d{3} … 0\.\d{3}$/);
  // Prospective power for the difference chosen on the form, never the observed one.
  await expect(page.getByTestId("ab-power")).toContainText(/^n = 4 per arm; against a difference of 0\.100 in held-out mean reward \(d = \d+\.\d\d at the spread seen, sd 0\.\d{3}\): power \d\.\d\d here, 80 % needs \d+ runs per arm/);
  await expect(page.getByTestId("ab-power")).not.toContainText("observed");
  await expect(page.getByTestId("ab-arms-chart")).toBeVisible();
  await expect(page.getByTestId("ab-metrics-table").getByRole("row")).toHaveCount(3);

  await page.goto("/evaluations?kind=ab-test");
  await expect(page.getByTestId("evaluations-table")).toContainText("two slow epochs vs default");
  await expect(page.getByTestId("evaluations-table")).toContainText(/significant: Δ \+0\.\d{3}/);
});

test("a viewer sees evaluations but cannot start one", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/evaluations");
  await expect(page.getByRole("heading", { name: "Evaluations", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "New A/B test" })).toHaveCount(0);
  await page.goto("/evaluations/new?kind=ab");
  await expect(page.getByText("You do not have access to this page")).toBeVisible();
  await expect(page.getByText("training:run")).toBeVisible();
});

test("a dataset snapshot's page shows its parents, what derives from it, the split per stratum and redacted records", async ({ page }) => {
  const database = await openDatabase(resolveDbTarget(process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db"));
  const fx = await seedLineageFixture(database, "e2e/demos").finally(() => database.close());
  await signInAs(page, "viewer");
  await page.goto("/datasets");
  await expect(page.getByTestId("datasets-table")).toContainText("e2e/demos/raw");
  await page.getByRole("link", { name: /^e2e\/demos v1$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/datasets/${fx.clean.id}$`));
  await expect(page.getByRole("heading", { name: "e2e/demos v1", level: 1 })).toBeVisible();
  await expect(page.getByTestId("lineage-parents")).toContainText("e2e/demos/raw v1");
  await expect(page.getByTestId("lineage-children")).toContainText("e2e/demos/train v1");
  await expect(page.getByTestId("lineage-evidence")).toContainText("ro-fixture-1");
  await expect(page.getByTestId("strata")).toContainText("demonstration/self-serve");
  await expect(page.getByTestId("records-table")).toContainText("[EMAIL]");
  await expect(page.getByTestId("records-table")).not.toContainText("@example.");
  // Up the chain: the raw parent, whose stored text still holds PII, shows it redacted too.
  await page.getByTestId("lineage-parents").getByRole("link", { name: "e2e/demos/raw v1" }).click();
  await expect(page.getByRole("heading", { name: "e2e/demos/raw v1", level: 1 })).toBeVisible();
  await expect(page.getByTestId("records-table")).toContainText("redacted for display");
  await expect(page.getByTestId("records-table")).not.toContainText("@example.");
});
