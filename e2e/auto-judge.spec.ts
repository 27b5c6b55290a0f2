// "Judge every new version" on the agent's model page (issue 26): a policy owner turns it on for a resources id and
// off again; a viewer sees the panel closed with the reason; on a phone nothing scrolls sideways. What the background
// pass does with published versions is tested on both databases in tests/integration/auto-judge/.
import { randomBytes } from "node:crypto";
import { seedReference } from "./helpers/seed";
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./helpers/auth";

const E2E_DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const AGENT = "support-desk";
const SHOTS = ".tmp/screens/auto-judge";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // The reference gives support-desk its pointers, so its model page exists (idempotent).
  await seedReference(E2E_DB);
});

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("a policy owner turns judging of a resources id on and off; the panel says so", async ({ page }) => {
  const resourcesId = `e2e-auto-judge-${randomBytes(4).toString("hex")}`;
  await signInAs(page, "policy_owner");
  await page.goto(`/agents/${AGENT}`);
  const panel = page.getByTestId("auto-judge");
  await panel.getByLabel("Resources id").fill(resourcesId);
  await panel.getByTestId("auto-judge-enable").click();
  const setting = panel.getByTestId("auto-judge-setting").filter({ hasText: resourcesId });
  await expect(setting).toContainText("on since");
  await expect(setting).toContainText("No new version published since.");
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/on-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await setting.getByTestId("auto-judge-toggle").click();
  await expect(setting).toContainText("off since");
});

test("a viewer sees the panel closed with the scope it needs", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto(`/agents/${AGENT}`);
  await expect(page.getByTestId("auto-judge-not-allowed")).toContainText("policy:write");
  await expect(page.getByTestId("auto-judge-enable")).toHaveCount(0);
  await expect(page.getByTestId("auto-judge-toggle")).toHaveCount(0);
});
