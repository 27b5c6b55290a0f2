// The promotion timeline in e2e: which step is current (it must be the machine's state), and its screenshots at
// 1440 and 390 px — the timeline card alone, after checking the page does not scroll sideways.
import { expect, type Page } from "@playwright/test";

export async function expectTimelineAt(page: Page, want: { state: string; kind: string; title: string }) {
  const timeline = page.getByTestId("timeline");
  await expect(timeline).toHaveAttribute("data-state", want.state, { timeout: 30_000 });
  const current = page.getByTestId("timeline-current");
  await expect(current).toHaveCount(1);
  await expect(current).toHaveAttribute("data-kind", want.kind);
  await expect(page.getByTestId("timeline-current-title")).toContainText(want.title);
}

async function noSidewaysScroll(page: Page, name: string) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(over, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** `<path>-1440.png` and `<path>-390.png` of the timeline card (the decision banner above it in the page shots). */
export async function shootTimeline(page: Page, path: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(200);
    await noSidewaysScroll(page, `${path} @ ${width}`);
    await page.locator("#timeline").screenshot({ path: `${path}-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The agent's pointer page, whole, at both widths. */
export async function shootAgentHistory(page: Page, path: string) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(200);
    await noSidewaysScroll(page, `${path} @ ${width}`);
    await page.screenshot({ path: `${path}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
