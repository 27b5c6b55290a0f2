// A page at 1440 and 390 px: it must not scroll sideways (the failure names the elements past the edge), and a
// full-page screenshot of each width goes to .tmp/screenshots for review.
import { expect, type Page } from "@playwright/test";

const SHOTS = ".tmp/screenshots";

export async function shoot(page: Page, name: string, dir = SHOTS) {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(200);
    const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    // On failure, name the widest elements past the edge.
    const culprits = over > 0 ? await page.evaluate(() => [...document.querySelectorAll("main *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).slice(-5).map((e) => `${e.tagName.toLowerCase()}.${(e.getAttribute("class") ?? "").split(" ").slice(0, 4).join(".")} ${Math.round(e.getBoundingClientRect().right)}`)) : [];
    expect(over, `${name} @ ${width} scrolls sideways: ${culprits.join(" | ")}`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
