// `npm test`: type-check, lint, unit + integration (Vitest, real SQLite and — when a server answers —
// PostgreSQL), then end-to-end (Playwright in Debian's Chromium against a production build).
// Ends with one summary line: "N passed, N failed, N skipped".
//   npm test -- --only=unit|e2e   run one layer;   npm test -- <vitest filter>   narrow Vitest
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { buildIsCurrent, writeBuildStamp } from "./build-stamp";

const root = process.cwd();
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--only="))?.split("=")[1];
const filters = args.filter((a) => !a.startsWith("--"));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" };
fs.mkdirSync(path.join(root, ".tmp"), { recursive: true });

type Tally = { passed: number; failed: number; skipped: number };
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];

function step(name: string, cmd: string, cmdArgs: string[], extraEnv: Record<string, string> = {}): boolean {
  const t0 = Date.now();
  console.log(`\n━━ ${name} ━━`);
  const r = spawnSync(cmd, cmdArgs, { stdio: "inherit", env: { ...env, ...extraEnv } });
  const ok = r.status === 0;
  console.log(`━━ ${name}: ${ok ? "ok" : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (!ok) failures.push(name);
  return ok;
}

function readVitest(file: string) {
  if (!fs.existsSync(file)) return;
  const j = JSON.parse(fs.readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  total.passed += j.numPassedTests;
  total.failed += j.numFailedTests;
  total.skipped += j.numPendingTests + j.numTodoTests;
}

function readPlaywright(file: string) {
  if (!fs.existsSync(file)) return;
  const j = JSON.parse(fs.readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; skipped: number; flaky: number } };
  total.passed += j.stats.expected + j.stats.flaky;
  total.failed += j.stats.unexpected;
  total.skipped += j.stats.skipped;
}

let typesChecked = false;
if (!only) {
  step("generate Prisma clients", bin("tsx"), ["scripts/db/generate.ts"]);
  typesChecked = step("type-check", bin("tsc"), ["--noEmit"]);
  step("lint", bin("eslint"), ["--max-warnings", "0", "."]);
}
if (!only || only === "unit") {
  const out = path.join(root, ".tmp/vitest.json");
  fs.rmSync(out, { force: true });
  step("unit + integration (vitest)", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...filters]);
  readVitest(out);
}
if (!only || only === "e2e") {
  let built = buildIsCurrent(root);
  if (!built) {
    built = step("next build", bin("next"), ["build"], { NODE_ENV: "production", ...(typesChecked ? { LIGHTGATE_BUILD_TYPES_CHECKED: "1" } : {}) });
    if (built) writeBuildStamp(root);
  }
  if (built) {
    const out = path.join(root, ".tmp/playwright.json");
    fs.rmSync(out, { force: true });
    step("end-to-end (playwright, chromium)", bin("playwright"), ["test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
    readPlaywright(out);
  }
}

if (failures.length) console.log(`\nFailed steps: ${failures.join(", ")}`);
// A failed step counts in the closing line too: type-check, lint and build always; a test step when its
// report shows no failing test (it crashed, or its server never started).
const failed = total.failed + failures.filter((f) => !f.startsWith("unit") && !f.startsWith("end-to-end")).length + (total.failed === 0 ? failures.filter((f) => f.startsWith("unit") || f.startsWith("end-to-end")).length : 0);
console.log(`\n${total.passed} passed, ${failed} failed, ${total.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
