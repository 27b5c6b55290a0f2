// A protected case on the candidate page opens the exact parent's and the candidate's traces of that case side by
// side (the reference seed stores a rollout per locked-gate case and side): reference C's regressed protected case
// escalated to a human on the parent and did not on the candidate — the tool, the final reward and the final
// output are named as differences and marked in the span trees. Two columns from 1024 px, stacked parent-then-
// candidate on a phone, never scrolling sideways; the URL is shareable; unknown ids are a 404.
import { seedReference } from "./helpers/seed";
import { expect, test, type Locator } from "@playwright/test";
import { signInAs } from "./helpers/auth";
import { shoot } from "./helpers/shoot";

const E2E_DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";

let seeded: { name: string; candidateId: string }[] = [];

test.beforeAll(async () => {
  seeded = await seedReference(E2E_DB);
});

const box = async (l: Locator) => (await l.boundingBox())!;

test("a regressed protected case of C opens both traces side by side with the differences marked, stacked on a phone", async ({ page }) => {
  await signInAs(page, "viewer");
  const id = seeded.find((s) => s.name === "C")!.candidateId;
  await page.goto(`/candidates/${id}`);
  const link = page.getByTestId("protected-cases").locator('tr[data-regressed="yes"]').first().getByTestId("case-link");
  const caseId = (await link.textContent())!.trim();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/candidates/${id}/cases/${encodeURIComponent(caseId).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  await expect(page.getByTestId("case-title")).toHaveText(caseId);

  const parent = page.getByTestId("case-side-parent");
  const candidate = page.getByTestId("case-side-candidate");
  await expect(parent.getByRole("heading", { name: "Exact parent" })).toBeVisible();
  await expect(candidate.getByRole("heading", { name: "Candidate" })).toBeVisible();
  for (const side of [parent, candidate]) {
    await expect(side.getByTestId("span-row").first()).toBeVisible();
    await expect(side.getByTestId("full-trace")).toHaveAttribute("href", /^\/traces\?rollout=ro-/);
  }
  const differences = page.getByTestId("case-differences");
  await expect(differences.locator('li[data-kind="tool"]').first()).toContainText("escalate_to_human");
  await expect(differences.locator('li[data-kind="reward"]')).toContainText("1.000 on the parent, 0.000 on the candidate");
  await expect(differences.locator('li[data-kind="output"]')).toBeVisible();
  await expect(parent.getByTestId("tool-calls")).toContainText("escalate_to_human");
  await expect(candidate.getByTestId("tool-calls")).not.toContainText("escalate_to_human");
  await expect(parent.getByTestId("span-mark").first()).toBeVisible();
  await expect(candidate.getByTestId("final-reward")).toHaveText("0.000");

  // Side by side at 1440 px: the candidate's column starts where the parent's ends, on the same line.
  await page.setViewportSize({ width: 1440, height: 900 });
  let [p, c] = [await box(parent), await box(candidate)];
  expect(c.x).toBeGreaterThanOrEqual(p.x + p.width);
  expect(Math.abs(c.y - p.y)).toBeLessThan(2);
  // Stacked at 390 px: the parent first, the candidate below it.
  await page.setViewportSize({ width: 390, height: 844 });
  [p, c] = [await box(parent), await box(candidate)];
  expect(c.y).toBeGreaterThanOrEqual(p.y + p.height);
  await shoot(page, "case-traces");

  // A span selected on one side opens in full there and is kept in the shareable URL.
  await parent.getByTestId("span-row").first().click();
  await expect(page).toHaveURL(/[?&]pspan=/);
  await expect(parent.getByTestId("span-detail")).toBeVisible();
  await page.reload();
  await expect(parent.getByTestId("span-detail")).toBeVisible();
  // Each side links to its rollout's full trace page.
  await candidate.getByTestId("full-trace").click();
  await expect(page).toHaveURL(/\/traces\?rollout=ro-/);
  await expect(page.getByTestId("span-waterfall")).toBeVisible();
});

test("an unknown case or candidate is the not-found page, never a server error", async ({ page }) => {
  await signInAs(page, "viewer");
  const id = seeded.find((s) => s.name === "C")!.candidateId;
  for (const path of [`/candidates/${id}/cases/${encodeURIComponent("no/such case?#%")}`, `/candidates/${id}/cases/constructor`, "/candidates/cand-nope/cases/billing-1"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
  }
  // Not valid percent-encoding: the proxy refuses it before Next.js would fail decoding the params.
  expect((await page.goto(`/candidates/${id}/cases/%E0%A4%A`))?.status()).toBe(400);
  const res = await page.goto(`/candidates/${id}/cases/${encodeURIComponent("no/such case")}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("Nothing here by that name");
});
