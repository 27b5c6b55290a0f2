// The reference seeded into the e2e database: the candidates list and each candidate page say the verdict
// and exactly which checks do not pass (C: 5; B: 2, 3; D: 1, 6, 7 — with check 7 of B and C waiting for an
// approval no one may give a quarantined candidate; A: none → PROMOTE TO BOUNDED CANARY, on the signed
// approval the seed makes with a registered passkey).
import { execFileSync } from "node:child_process";
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

test.beforeAll(() => {
  const out = execFileSync("npx", ["tsx", "scripts/gate/reference.ts", "--seed"], { env: { ...process.env, DATABASE_URL: E2E_DB }, encoding: "utf8" });
  seeded = (JSON.parse(out.trim().split("\n").at(-1)!) as { seeded: typeof seeded }).seeded;
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
    if (name === "C") await expect(page.getByTestId("protected-cases").locator('tr[data-regressed="yes"]')).toHaveCount(3);
    if (name === "D") await expect(page.getByTestId("canary-outcomes")).toContainText("not verified");
  });
}
