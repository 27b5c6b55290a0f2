// Developer aid: `npx tsx scripts/screenshot.ts <url> <out.png> [--dark] [--width=1440] [--full]`.
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";

const [url, out] = process.argv.slice(2);
if (!url || !out) throw new Error("usage: screenshot <url> <out.png> [--dark] [--width=N] [--full]");
const width = Number(process.argv.find((a) => a.startsWith("--width="))?.split("=")[1] ?? 1440);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: process.argv.includes("--dark") ? "dark" : "light" });
await page.goto(url, { waitUntil: "networkidle" });
await page.waitForTimeout(Number(process.env.SHOT_WAIT ?? 800));
await page.screenshot({ path: out, fullPage: process.argv.includes("--full") });
await browser.close();
