// Debian's Chromium; Playwright's own browser download is unavailable offline. Its headless shell (apt-get install
// chromium-headless-shell) when installed: the same engine without the full browser's windowing and GPU process
// work, a quarter less CPU for the page sweep (128 against 175 CPU seconds, 2026-12-06) — on two cores that CPU
// is what the tests beside it wait for. Otherwise the full browser (apt-get install chromium).
import fs from "node:fs";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
// Without the networking flags Chromium floods a closed network with connection attempts.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-dev-shm-usage",
];
