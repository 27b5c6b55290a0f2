// The hostile-input suite (tests/hostile/) in `npm test`: the production server (scripts/start.ts) on its own
// throw-away SQLite database — so its locked-out demo accounts and stored hostile JSON touch no other spec —
// and HOSTILE_RUNS (default 1,000) generated requests per route family, fast-check seed HOSTILE_SEED (printed).
// Each family passes only with 0 answers ≥ 500, every 4xx naming the problem, no refused request having
// written a row, every cross-origin cookie mutation refused, and the server still answering.
// The full size on both databases is `npm run bench:hostile`.
import { expect, test } from "@playwright/test";
import { HOSTILE_SERVER_ENV, startRealServer, throwawayDatabase, type RealServer, type ThrowawayDatabase } from "../tests/hostile/server";
import { DEFAULT_SEED, FAMILIES, prepareSuite, runSuite, summaryLine, classReport, violationReport } from "../tests/hostile/suite";

const RUNS = Number(process.env.HOSTILE_RUNS ?? 1_000);
const SEED = Number(process.env.HOSTILE_SEED ?? DEFAULT_SEED);
const PORT = Number(process.env.E2E_PORT ?? 3210) + 2;

let database: ThrowawayDatabase | undefined;
let server: RealServer | undefined;

test.afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

// One test, one server: each family reads back what the ones before it stored (magic keys in stored JSON
// reach the dashboard's tRPC queries), and every family runs and reports even when an earlier one fails.
test(`hostile-input suite: ${RUNS} requests per route family against the production server`, async () => {
  test.setTimeout(900_000);
  database = await throwawayDatabase("sqlite", "e2e");
  server = await startRealServer({ databaseUrl: database.url, port: PORT, env: HOSTILE_SERVER_ENV });
  const ctx = await prepareSuite(server);
  console.log(`hostile suite: ${RUNS} requests per family, seed ${SEED} (HOSTILE_SEED=${SEED} HOSTILE_RUNS=${RUNS} replays it)`);
  for (const family of Object.keys(FAMILIES)) {
    await test.step(`${family}: nothing ≥ 500, every 4xx names the problem, nothing half-written, still answering`, async () => {
      const [report] = await runSuite({ ctx, databaseUrl: server!.databaseUrl, runs: RUNS, seed: SEED, families: [family] });
      console.log(summaryLine(report!));
      expect.soft(report!.requests).toBeGreaterThanOrEqual(RUNS);
      expect.soft(report!.violations, `${family} violations by class:\n${classReport([report!])}\n\n${violationReport([report!])}`).toEqual([]);
    });
  }
});
