// First start: an instance with nobody sends every visitor to /setup, which creates the first admin once
// (with the strong-password rule) and is gone afterwards. Runs against the empty server on E2E_PORT + 1.
import { expect, test } from "@playwright/test";

const EMPTY = `http://localhost:${Number(process.env.E2E_PORT ?? 3210) + 1}`;
test.use({ baseURL: EMPTY });

test("setup creates the first admin, once", async ({ page }) => {
  await page.goto("/training");
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel("Your name").fill("Ada Quinn");
  await page.getByLabel("Email").fill("ada@example.org");
  await page.getByLabel("Password", { exact: true }).fill("password1234");
  await expect(page.getByTestId("password-problems")).toContainText("most common");
  const submit = page.getByRole("button", { name: "Create admin and sign in" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Password", { exact: true }).fill("gate-keeper-on-duty-7");
  await expect(page.getByTestId("password-ok")).toBeVisible();
  await page.getByLabel("Password again").fill("gate-keeper-on-duty-7");
  await submit.click();
  await expect(page).toHaveURL(/\/settings\/people$/);
  await expect(page.getByTestId("user-name")).toHaveText("Ada Quinn");
  await expect(page.getByTestId("people-table")).toContainText("ada@example.org");

  // setup is gone, for everyone: the admin lands on the dashboard, a visitor on sign-in
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/training$/);
  await page.context().clearCookies();
  await page.goto("/setup");
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByTestId("demo-accounts")).toHaveCount(0);
});
