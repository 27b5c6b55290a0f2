// Signing in as each demo role: the shell shows who you are and only what your roles allow; pages and
// data you may not use stay closed. The expected navigation comes from the same scope table as the server.
import { expect, test } from "@playwright/test";
import { HUMAN_ROLES, ROLE_LABELS, ROLE_SCOPES } from "@/lib/auth/scopes";
import { NAV } from "@/components/shell/nav-items";
import { landingPath } from "@/lib/auth/landing";
import { DEMO_NAMES, DEMO_PASSWORD, demoEmail, signInAs } from "./helpers/auth";

const items = NAV.flatMap((s) => s.items);

test("a visitor without a session is sent to sign-in and brought back afterwards", async ({ page }) => {
  await page.goto("/candidates");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcandidates$/);
  await page.getByLabel("Email").fill(demoEmail("viewer"));
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/candidates$/);
  await expect(page.getByTestId("user-name")).toHaveText(DEMO_NAMES.viewer);
});

test("without a session the API answers UNAUTHORIZED and the status page stays public", async ({ page, request }) => {
  const res = await request.get("/api/trpc/people.list");
  expect(res.status()).toBe(401);
  await page.goto("/status");
  await expect(page.getByRole("heading", { name: "Status", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Training" })).toHaveCount(0);
});

for (const role of HUMAN_ROLES) {
  test(`signed in as ${role}: name, roles, and exactly the allowed sections`, async ({ page }) => {
    await signInAs(page, role);
    await page.goto("/status");
    await expect(page.getByTestId("user-name")).toHaveText(DEMO_NAMES[role]);
    await expect(page.getByTestId("user-roles")).toHaveText(ROLE_LABELS[role]);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const item of items) {
      const visible = !item.scope || ROLE_SCOPES[role].includes(item.scope);
      await expect(nav.getByRole("link", { name: item.label, exact: true }), `${item.label} for ${role}`).toHaveCount(visible ? 1 : 0);
    }
    await page.goto("/settings/people");
    if (role === "admin") {
      await expect(page.getByTestId("people-table")).toContainText(demoEmail("release_approver"));
    } else {
      await expect(page.getByText("You do not have access to this page")).toBeVisible();
    }
    await page.goto("/audit");
    await expect(page.getByTestId("audit-banner")).toContainText("Chain verified");
    // "/" lands where the role works (lib/auth/landing.ts reads the same scope table).
    await page.goto("/");
    await expect(page).toHaveURL(new RegExp(`${landingPath([role]).replace(/\//g, "\\/")}$`));
  });
}

test("an admin gives a person a role for one agent; the audit log records it", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/settings/people");
  const row = page.getByTestId(`person-${demoEmail("canary_approver")}`);
  await row.getByRole("button", { name: "Add role" }).click();
  await row.getByLabel("Role", { exact: true }).selectOption("release_approver");
  await row.getByLabel("Agent", { exact: true }).fill("support-desk");
  await row.getByRole("button", { name: "Add" }).click();
  await expect(row.getByText("Release approver · support-desk")).toBeVisible();
  await page.goto("/audit");
  await expect(page.getByTestId("audit-row").first()).toContainText("role.grant");
  await expect(page.getByTestId("audit-banner")).toContainText("Chain verified");
});

test("signing out ends the session", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(demoEmail("trainer"));
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("user-name")).toHaveText(DEMO_NAMES.trainer);
  await page.getByRole("button", { name: /^Account:/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/training");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Ftraining$/);
});
