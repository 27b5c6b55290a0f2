// A person registers passkeys with Chromium's virtual WebAuthn authenticator (CDP) and signs a test
// payload: the same real ceremonies a hardware key or platform authenticator goes through.
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./helpers/auth";

async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

test("a release approver registers a passkey and signs a test payload with it", async ({ page }) => {
  const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
  await signInAs(page, "release_approver");
  await page.goto("/settings/security");
  await expect(page.getByText("No passkeys yet")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign a test payload" })).toBeDisabled();

  await page.getByLabel("Name").fill("Laptop");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByTestId("passkey-outcome")).toContainText("Passkey “Laptop” registered.");
  await expect(page.getByTestId("passkey-list")).toContainText("Laptop");
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);

  await page.getByRole("button", { name: "Sign a test payload" }).click();
  const outcome = page.getByTestId("passkey-outcome");
  await expect(outcome).toContainText("verified, online and offline");
  await expect(outcome).toContainText(/payload sha256:[0-9a-f]{64} · signature counter [1-9]/);
  await expect(page.getByTestId("passkey-list")).not.toContainText("never used");

  // the registration is in the audit log, and the chain still verifies
  await page.goto("/audit");
  await expect(page.getByTestId("audit-table")).toContainText("passkey.register");
  await expect(page.getByTestId("audit-banner")).toContainText("Chain verified");
});

test("the same authenticator cannot be registered twice; a second one can", async ({ page }) => {
  const { cdp } = await addVirtualAuthenticator(page);
  await signInAs(page, "canary_approver");
  await page.goto("/settings/security");
  await page.getByLabel("Name").fill("Desk key");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByTestId("passkey-outcome")).toContainText("registered");
  await page.getByLabel("Name").fill("Desk key again");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByTestId("passkey-outcome")).toContainText("Registration failed");
  await expect(page.getByTestId("passkey-list")).not.toContainText("Desk key again");

  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "usb", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.getByLabel("Name").fill("Spare key");
  await page.getByRole("button", { name: "Add passkey" }).click();
  await expect(page.getByTestId("passkey-outcome")).toContainText("Passkey “Spare key” registered.");
  await expect(page.getByTestId("passkey-list").locator("li")).toHaveCount(2);
});
