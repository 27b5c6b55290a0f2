import { expect, test } from "@playwright/test";
import { signInAs } from "./helpers/auth";

test("the status page reports the database in use and its migrations", async ({ page }) => {
  await page.goto("/status");
  await expect(page.getByRole("heading", { name: "Status", level: 1 })).toBeVisible();
  const facts = page.getByTestId("database-facts");
  await expect(facts).toContainText("SQLite (embedded default)");
  await expect(facts).toContainText(/SQLite 3\.\d+/);
  await expect(facts).toContainText(".tmp/e2e/lightgate.db");
  await expect(page.getByTestId("health-banner")).toContainText("Healthy");
  await expect(page.getByTestId("migration-list").getByText("applied").first()).toBeVisible();
});

test("the shell navigates between sections and remembers the theme", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/");
  await expect(page).toHaveURL(/\/training$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const label of ["Training", "Candidates", "Rollouts", "Traces", "Resources", "Runners", "Approvals", "Audit", "Security", "Status"]) {
    await expect(nav.getByRole("link", { name: label })).toBeVisible();
  }
  await nav.getByRole("link", { name: "Candidates" }).click();
  await expect(page.getByRole("heading", { name: "Candidates", level: 1 })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Candidates" })).toHaveAttribute("aria-current", "page");

  await page.getByRole("radio", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
});
