// The reference seeded into the e2e database: the candidates list and each candidate page say the verdict
// and exactly which checks do not pass (C: 5; B: 2, 3; D: 1, 6, 7 — with check 7 of B and C waiting for an
// approval no one may give a quarantined candidate; A: none → PROMOTE TO BOUNDED CANARY, on the signed
// approval the seed makes with a registered passkey).
import { seedReference } from "./helpers/seed";
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./helpers/auth";

const E2E_DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";

const EXPECTED: Record<string, { verdict: string; open: number[] }> = {
  A: { verdict: "PROMOTE TO BOUNDED CANARY", open: [] },
  B: { verdict: "QUARANTINED", open: [2, 3, 7] },
  C: { verdict: "QUARANTINED", open: [5, 7] },
  D: { verdict: "QUARANTINED", open: [1, 6, 7] },
};

let seeded: { name: string; candidateId: string }[] = [];

test.beforeAll(async () => {
  seeded = await seedReference(E2E_DB);
});

async function openChecks(page: Page): Promise<number[]> {
  const rows = page.getByTestId("checks").locator("tr[data-status]");
  await expect(rows).toHaveCount(7);
  const open: number[] = [];
  for (let i = 0; i < 7; i++) if ((await rows.nth(i).getAttribute("data-status")) !== "pass") open.push(i + 1);
  return open;
}

test("the list shows each reference candidate's verdict and the checks that do not pass", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/candidates?agent=support-desk");
  const table = page.getByTestId("candidates-table");
  for (const { name, candidateId } of seeded) {
    const row = table.locator("tr", { has: page.locator(`a[href="/candidates/${candidateId}"]`) });
    await expect(row.getByTestId("verdict")).toHaveText(EXPECTED[name]!.verdict);
    const open = EXPECTED[name]!.open;
    if (open.length) for (const id of open) await expect(row.getByTestId("open-checks")).toContainText(`${id} `);
    else await expect(row).toContainText("all 7 pass");
  }
});

test("the list filters by verdict from a shareable URL, and on a phone the verdict stays in sight", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/candidates?agent=support-desk&verdict=QUARANTINED");
  const table = page.getByTestId("candidates-table");
  await expect(page.getByLabel("Verdict")).toHaveValue("QUARANTINED");
  for (const { name, candidateId } of seeded) {
    const link = table.locator(`a[href="/candidates/${candidateId}"]`);
    if (EXPECTED[name]!.verdict === "QUARANTINED") await expect(link).toBeVisible();
    else await expect(link).toHaveCount(0);
  }
  await page.getByLabel("Verdict").selectOption("");
  await expect(page).not.toHaveURL(/verdict=/);
  await expect(table.locator(`a[href="/candidates/${seeded.find((s) => s.name === "A")!.candidateId}"]`)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  const a = table.locator("tr", { has: page.locator(`a[href="/candidates/${seeded.find((s) => s.name === "A")!.candidateId}"]`) });
  await expect(a.getByTestId("verdict-compact")).toBeVisible();
  await expect(a.getByTestId("verdict-compact")).toHaveText(EXPECTED.A!.verdict);
  await expect(a.getByTestId("verdict")).toBeHidden();
  await page.screenshot({ path: ".tmp/screens/candidates/list-390.png", fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: ".tmp/screens/candidates/list-1440.png", fullPage: true });
});

for (const name of ["A", "B", "C", "D"]) {
  test(`candidate ${name}'s page states its verdict, its reason and its open checks beside the parent`, async ({ page }) => {
    await signInAs(page, "viewer");
    const id = seeded.find((s) => s.name === name)!.candidateId;
    await page.goto(`/candidates/${id}`);
    await expect(page.getByTestId("verdict-text")).toHaveText(EXPECTED[name]!.verdict);
    expect(await openChecks(page)).toEqual(EXPECTED[name]!.open);
    await expect(page.getByTestId("freshness")).toContainText("Evaluator:");
    await expect(page.getByText("Candidate next to its exact parent")).toBeVisible();
    await expect(page.getByTestId("approval-slot")).toBeVisible();
    // The reference's parent is a lineage root: the reward, coverage and retry cards say it has nothing to compare.
    await expect(page.getByTestId("parent-absent")).toHaveCount(3);
    for (const sentence of await page.getByTestId("parent-absent").allTextContents()) expect(sentence).toContain("The parent has no receipt: nothing to compare.");
    if (name === "B") await expect(page.getByTestId("retry-debt-candidate")).toContainText("over budget by 14");
    if (name === "C") {
      await expect(page.getByTestId("protected-cases").locator('tr[data-regressed="yes"]')).toHaveCount(3);
      await expect(page.getByTestId("regression-rule")).toContainText("Regressed = the parent passed and the candidate failed, or the candidate scored below the parent by any amount");
      await expect(page.getByTestId("protected-cases").getByTestId("regression-reason")).toHaveCount(3);
    }
    if (name === "D") await expect(page.getByTestId("canary-outcomes")).toContainText("not verified");
  });
}

test("the reward chart's two locked-gate labels never print over each other, and hovering reads out the rollout", async ({ page }) => {
  await signInAs(page, "viewer");
  // A's locked-gate means (parent 0.613, candidate 0.653) lie close together on the reward axis.
  await page.goto(`/candidates/${seeded.find((s) => s.name === "A")!.candidateId}`);
  const card = page.locator("section", { has: page.getByRole("heading", { name: "Reward during training" }) });
  const labels = card.locator(".reference-labels text");
  await expect(labels).toHaveCount(2);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const [a, b] = [(await labels.nth(0).boundingBox())!, (await labels.nth(1).boundingBox())!];
    expect(a.y + a.height <= b.y + 1 || b.y + b.height <= a.y + 1, `labels overlap at ${width} px: ${JSON.stringify([a, b])}`).toBe(true);
  }
  await card.locator(".recharts-surface").hover();
  await expect(card.getByTestId("curve-readout")).toContainText(/rollout \d+/);
  await expect(card.getByTestId("curve-readout")).toContainText("candidate reward");
});
