// Developer aid: `npx tsx scripts/screenshot.ts <url> <out.png> [--dark] [--width=1440] [--full] [--as=<role>]
// [--select=<css>=<value>]`. --as signs in first as that demo person (the server must run with LIGHTGATE_DEMO or
// LIGHTGATE_DEMO_USERS); --select picks an option in a <select> after the page loads (e.g. a form's family).
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { DEMO_PASSWORD, demoEmail } from "../lib/auth/demo-accounts";
import type { HumanRole } from "../lib/auth/scopes";

const [url, out] = process.argv.slice(2);
if (!url || !out) throw new Error("usage: screenshot <url> <out.png> [--dark] [--width=N] [--full]");
const width = Number(process.argv.find((a) => a.startsWith("--width="))?.split("=")[1] ?? 1440);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: process.argv.includes("--dark") ? "dark" : "light" });
const as = process.argv.find((a) => a.startsWith("--as="))?.slice(5) as HumanRole | undefined;
if (as) {
  const origin = new URL(url).origin;
  const res = await page.request.post(`${origin}/api/auth/sign-in/email`, { data: { email: demoEmail(as), password: DEMO_PASSWORD }, headers: { origin } });
  if (!res.ok()) throw new Error(`signing in as ${as} failed: ${res.status()}`);
}
// Live pages poll every second and never go network-idle: SHOT_UNTIL=load for those.
await page.goto(url, { waitUntil: (process.env.SHOT_UNTIL as "load" | undefined) ?? "networkidle" });
const select = process.argv.find((a) => a.startsWith("--select="))?.slice(9);
if (select) {
  const at = select.lastIndexOf("=");
  await page.locator(select.slice(0, at)).selectOption(select.slice(at + 1));
}
await page.waitForTimeout(Number(process.env.SHOT_WAIT ?? 800));
await page.screenshot({ path: out, fullPage: process.argv.includes("--full") });
await browser.close();
