// The agent's model page with the reference seeded into the e2e database: every version with its verdict (the
// candidates list's), who trained and approved it and which pointers name it — on a phone the verdict stays beside
// the version —; two versions ticked and compared on a shareable URL (C vs A: check 5, the cases where C's three
// protected regressions sit, the config keys that differ); hostile compare links answer 404 saying why, never a 5xx.
import { seedReference } from "./helpers/seed";
import { expect, test, type Page } from "@playwright/test";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { signInAs } from "./helpers/auth";

const E2E_DB = process.env.E2E_DATABASE_URL ?? "file:./.tmp/e2e/lightgate.db";
const AGENT = "support-desk";
const OTHER_AGENT = "e2e-model-page-other";
const SHOTS = ".tmp/screens/model-page";

const VERDICT: Record<string, string> = { A: "PROMOTE TO BOUNDED CANARY", B: "QUARANTINED", C: "QUARANTINED", D: "QUARANTINED" };

let ids: Record<string, string> = {};
let foreignId = "";

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const seeded = await seedReference(E2E_DB);
  ids = Object.fromEntries(seeded.map((s) => [s.name, s.candidateId]));
  // A version of another agent, for the link that pairs it with one of support-desk's.
  const database = await openDatabase(resolveDbTarget(E2E_DB));
  try {
    const existing = await database.db.candidate.findFirst({ where: { agent: OTHER_AGENT }, select: { id: true } });
    foreignId =
      existing?.id ??
      (
        await database.db.candidate.create({
          data: { id: "cand-e2e-model-page-other", agent: OTHER_AGENT, resourcesId: "rs-e2e-model-page-other", version: 1, digest: `sha256:${"c".repeat(64)}`, parentResourcesId: "rs-e2e-model-page-other", parentVersion: 0, parentDigest: `sha256:${"d".repeat(64)}`, algorithm: "apo", stage1: "{}", createdById: "e2e" },
        })
      ).id;
  } finally {
    await database.close();
  }
});

/** The page's URL ends with exactly this path and query. */
const endsWith = (path: string) => new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

const rowOf = (page: Page, id: string) => page.getByTestId("versions-table").locator("tr", { has: page.locator(`a[href="/candidates/${id}"]`) });

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("the model page lists each version with its verdict, origin, approver and pointers; on a phone the verdict stays in sight", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto(`/agents/${AGENT}`);
  await expect(page.getByTestId("agent-title")).toHaveText(AGENT);
  for (const name of ["A", "B", "C", "D"]) {
    const row = rowOf(page, ids[name]!);
    await expect(row.getByTestId("verdict")).toHaveText(VERDICT[name]!);
    await expect(row.getByTestId("declared-by")).toHaveText("ppo · declared by svc-trainer-ppo");
  }
  const a = rowOf(page, ids.A!);
  await expect(a.getByTestId("approvals")).toContainText("canary: Alice Reference");
  await expect(a.locator('[data-testid="pointer-badge"][data-pointer="canary"]')).toBeVisible();
  await expect(a.getByTestId("gain")).toHaveText("+0.040");
  for (const name of ["B", "C", "D"]) await expect(rowOf(page, ids[name]!)).toContainText("none");
  // The pointer timeline stays below, and the lineage root's move says so once.
  await expect(page.getByTestId("pointer-moves")).toBeVisible();
  for (const reason of await page.getByTestId("pointer-move-reason").allTextContents()) expect(reason).not.toContain("lineage root: lineage root");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(a.getByTestId("version-link")).toBeVisible();
  await expect(a.getByTestId("verdict-compact")).toHaveText(VERDICT.A!);
  await expect(a.getByTestId("verdict")).toBeHidden();
  await noSidewaysScroll(page);
  // The table scrolls inside its own region, which a keyboard can reach.
  await expect(page.getByRole("region", { name: `${AGENT} versions` })).toHaveAttribute("tabindex", "0");
  await page.screenshot({ path: `${SHOTS}/versions-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${SHOTS}/versions-1440.png`, fullPage: true });
});

test("ticking two versions opens their comparison on a URL that can be shared", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto(`/agents/${AGENT}`);
  await rowOf(page, ids.A!).getByTestId("compare-pick").check();
  await rowOf(page, ids.C!).getByTestId("compare-pick").check();
  // Two ticked: the others wait.
  await expect(rowOf(page, ids.B!).getByTestId("compare-pick")).toBeDisabled();
  await page.getByTestId("compare-link").click();
  // The older version (C, registered before A) is a.
  const url = `/agents/${AGENT}/compare?a=${ids.C}&b=${ids.A}`;
  await expect(page).toHaveURL(endsWith(url));

  const check = async () => {
    await expect(page.getByTestId("verdict-a")).toHaveText(VERDICT.C!);
    await expect(page.getByTestId("verdict-b")).toHaveText(VERDICT.A!);
    await expect(page.locator('[data-testid="compare-checks"] tr[data-check]')).toHaveCount(7);
    await expect(page.locator('[data-testid="compare-checks"] tr[data-check="5"]')).toHaveAttribute("data-a", "fail");
    await expect(page.locator('[data-testid="compare-checks"] tr[data-check="5"]')).toHaveAttribute("data-b", "pass");
    await expect(page.locator('[data-testid="compare-figures"] tr[data-figure="protected"] td[data-side="a"]')).toContainText("3");
    await expect(page.getByTestId("exam-sentence")).toHaveAttribute("data-comparable", "true");
    const top = page.getByTestId("case-difference");
    await expect(top.first()).toBeVisible();
    for (let i = 0; i < 3; i++) await expect(top.nth(i)).toContainText("protected");
    await expect(page.locator('[data-testid="config-entry"][data-path="resources.policy.weights"]')).toContainText("candidate-C");
  };
  await check();
  // The link alone, opened afresh, shows the same comparison.
  await page.goto(url);
  await check();
  await expect(page.getByLabel("Version A")).toHaveValue(ids.C!);
  await expect(page.getByLabel("Version B")).toHaveValue(ids.A!);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("verdict-a")).toBeVisible();
  await noSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/compare-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: `${SHOTS}/compare-1440.png`, fullPage: true });
});

test("the picker compares any two, and says so when both sides name the same version", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto(`/agents/${AGENT}/compare`);
  await expect(page.getByTestId("compare-problem")).toHaveText("Pick two versions to compare.");
  await page.getByLabel("Version A").selectOption(ids.B!);
  await page.getByLabel("Version B").selectOption(ids.D!);
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(endsWith(`/agents/${AGENT}/compare?a=${ids.B}&b=${ids.D}`));
  await expect(page.getByTestId("verdict-a")).toHaveText(VERDICT.B!);

  const same = await page.goto(`/agents/${AGENT}/compare?a=${ids.A}&b=${ids.A}`);
  expect(same?.status()).toBe(200);
  await expect(page.getByTestId("compare-problem")).toContainText("the same version");
  await expect(page.getByTestId("comparison")).toHaveCount(0);
});

test("a compare link naming no version of the agent answers 404 saying why, never a 5xx", async ({ page }) => {
  await signInAs(page, "viewer");
  const links = [
    `/agents/${AGENT}/compare?a=cand-no-such-version&b=${ids.A}`,
    `/agents/${AGENT}/compare?a=${ids.A}&b=${foreignId}`,
    `/agents/${OTHER_AGENT}/compare?a=${foreignId}&b=${ids.A}`,
    `/agents/${AGENT}/compare?a=${ids.A}&a=${ids.C}&b=${ids.B}`,
    `/agents/${AGENT}/compare?a=${ids.A}&b=%00`,
    `/agents/${AGENT}/compare?a=${"x".repeat(3000)}&b=${ids.A}`,
    `/agents/no-such-agent/compare?a=${ids.A}&b=${ids.C}`,
  ];
  for (const link of links) {
    const res = await page.goto(link);
    expect(res?.status(), link).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
  }
  await page.goto(`/agents/${AGENT}/compare?a=${ids.A}&b=${foreignId}`);
  await expect(page.getByTestId("compare-not-found")).toContainText("a version of another agent");
  await expect(page.getByRole("link", { name: `Pick two of ${AGENT}'s versions` })).toHaveAttribute("href", `/agents/${AGENT}#versions`);
});
