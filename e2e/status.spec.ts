import { expect, test } from "@playwright/test";
import { signInAs } from "./helpers/auth";

test("the status page tells a visitor only whether the instance is healthy", async ({ page }) => {
  await page.goto("/status");
  await expect(page.getByTestId("health-banner")).toContainText("Healthy — sign in to see");
  await expect(page.getByTestId("database-facts")).toHaveCount(0);
  await expect(page.getByText(/SQLite|lightgate\.db/)).toHaveCount(0);
});

test("the status page reports the database in use and its migrations to a signed-in person", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/status");
  await expect(page.getByRole("heading", { name: "Status", level: 1 })).toBeVisible();
  const facts = page.getByTestId("database-facts");
  await expect(facts).toContainText("SQLite (embedded default)");
  await expect(facts).toContainText(/SQLite 3\.\d+/);
  await expect(facts).toContainText(".tmp/e2e/lightgate.db");
  await expect(page.getByTestId("health-banner")).toContainText("Healthy");
  await expect(page.getByTestId("migration-list").getByText("applied").first()).toBeVisible();
});
