// `npm test`: type-check, lint, unit + integration (Vitest, real SQLite and — when a server answers —
// PostgreSQL), then end-to-end (Playwright in Debian's Chromium against a production build).
// Ends with one summary line: "N passed, N failed, N skipped".
//   npm test -- --only=unit|e2e   run one layer;   npm test -- <vitest filter>   narrow Vitest
//
// The layers share nothing (Vitest opens its own databases and ports; the e2e servers run on .tmp/e2e and
// ports 3210+), and on two cores no one of them keeps both busy — Vitest's suites wait on servers and child
// processes much of the time. So they run side by side: Vitest from the start, beside type-check, lint and the
// production build, then the e2e once the build is there. Vitest streams to the terminal; every other step's output goes to .tmp/test-logs/
// and is printed, whole, when the step ends.
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { buildIsCurrent, writeBuildStamp } from "./build-stamp";

const root = process.cwd();
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--only="))?.split("=")[1];
const filters = args.filter((a) => !a.startsWith("--"));
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" };
const logs = path.join(root, ".tmp/test-logs");
fs.mkdirSync(logs, { recursive: true });

type Tally = { passed: number; failed: number; skipped: number };
const total: Tally = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];
const t0 = Date.now();
const clock = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;

/** Runs one step; `streamed` steps write to the terminal, the others to a log printed when they end. */
function step(name: string, cmd: string, cmdArgs: string[], opts: { extraEnv?: Record<string, string>; streamed?: boolean } = {}): Promise<boolean> {
  const started = Date.now();
  const log = path.join(logs, `${name.replace(/[^a-z0-9]+/gi, "-")}.log`);
  const out = opts.streamed ? "inherit" : fs.openSync(log, "w");
  console.log(`\n━━ ${name} ━━ (started at ${clock()}${opts.streamed ? "" : `; output when it ends`})`);
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: ["ignore", out, out], env: { ...env, ...opts.extraEnv } });
    const done = (code: number | null, signal: string | null) => {
      if (typeof out === "number") fs.closeSync(out);
      const ok = code === 0;
      if (!opts.streamed) console.log(`\n━━ ${name}: output ━━\n${fs.readFileSync(log, "utf8").trimEnd()}`);
      console.log(`━━ ${name}: ${ok ? "ok" : `FAILED (exit ${code ?? signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s (at ${clock()})`);
      if (!ok) failures.push(name);
      resolve(ok);
    };
    child.on("error", (e) => {
      console.log(`━━ ${name}: could not start: ${e.message}`);
      done(null, "spawn error");
    });
    child.on("close", done);
  });
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

/** The production build the e2e runs against, unless the sources are unchanged since the last one. */
async function build(typesCheckedHere: boolean): Promise<boolean> {
  if (buildIsCurrent(root)) return true;
  // When this run type-checks the project itself, the build need not check the same code again.
  const ok = await step("next build", bin("next"), ["build"], { extraEnv: { NODE_ENV: "production", ...(typesCheckedHere ? { LIGHTGATE_BUILD_TYPES_CHECKED: "1" } : {}) } });
  if (ok) writeBuildStamp(root);
  return ok;
}

async function vitest() {
  const out = path.join(root, ".tmp/vitest.json");
  fs.rmSync(out, { force: true });
  // At a lower CPU priority: the e2e after the build is the longest path, and Vitest's suites mostly wait on
  // servers and child processes, so they take the cores the browser and the app server leave idle.
  await step("unit + integration (vitest)", "nice", ["-n", "5", bin("vitest"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`, ...filters], { streamed: true });
  readVitest(out);
}

/**
 * `npm run test:full` (LIGHTGATE_TEST_FULL=1) runs everything at full depth: the PostgreSQL half of the slowest
 * gate suites (tests/helpers/db.ts), the page sweep's whole role × page × width matrix with axe at both widths,
 * and 1,000 hostile requests per route family. `npm test` keeps CI inside 30 minutes on two cores: the same
 * suites at their everyday depth (100 hostile requests per family against the production build; the in-process gate API suite keeps its 400; the sweep as e2e/every-page.spec.ts says).
 */
const FULL = process.env.LIGHTGATE_TEST_FULL === "1";
const depth: Record<string, string> = FULL ? { LIGHTGATE_SWEEP: "full", HOSTILE_RUNS: process.env.HOSTILE_RUNS ?? "1000" } : { HOSTILE_RUNS: process.env.HOSTILE_RUNS ?? "100" };

async function e2e(streamed: boolean) {
  const out = path.join(root, ".tmp/playwright.json");
  fs.rmSync(out, { force: true });
  await step("end-to-end (playwright, chromium)", bin("playwright"), ["test"], { extraEnv: { PLAYWRIGHT_JSON_OUTPUT_NAME: out, ...depth }, streamed });
  readPlaywright(out);
}

async function main() {
  if (only === "unit") await vitest();
  else if (only === "e2e") {
    if (await build(false)) await e2e(true);
  } else {
    await step("generate Prisma clients", bin("tsx"), ["scripts/db/generate.ts"], { streamed: true });
    // Vitest needs no build: it starts at once, beside type-check, lint and the build the e2e waits for.
    await Promise.all([
      step("type-check", bin("tsc"), ["--noEmit"]),
      step("lint", bin("eslint"), ["--max-warnings", "0", "."]),
      vitest(),
      build(true).then((built) => (built ? e2e(false) : undefined)),
    ]);
  }

  if (failures.length) console.log(`\nFailed steps: ${failures.join(", ")}`);
  // A failed step counts in the closing line too: type-check, lint and build always; a test step when its
  // report shows no failing test (it crashed, or its server never started).
  const tests = (f: string) => f.startsWith("unit") || f.startsWith("end-to-end");
  const failed = total.failed + failures.filter((f) => !tests(f)).length + (total.failed === 0 ? failures.filter(tests).length : 0);
  console.log(`\n${total.passed} passed, ${failed} failed, ${total.skipped} skipped (${clock()})`);
  process.exit(failures.length ? 1 : 0);
}

void main();
