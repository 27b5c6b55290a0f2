// `npm run bench:hostile` — the hostile-input suite (tests/hostile/) at full size against the production
// server (scripts/start.ts, as `npm start` runs it) on a throw-away SQLite database and, when one answers,
// a throw-away PostgreSQL database. Prints per route family: requests, answers ≥ 500, 4xx that do not name
// the problem, refused requests that still wrote, mustn't-pass requests that passed, unanswered, seconds;
// then every violation group with an example request. Exits 1 on any violation.
// Needs a current `npx next build` (start.ts builds first when the sources changed).
// Options: --runs 5000 (per family; npm test runs 1,000) --seed N --only sqlite|postgresql --families store,otlp,trpc,pointers,auth
//          --port 3480   --url http://127.0.0.1:PORT --database-url URL  (an already running server instead)
import os from "node:os";
import { HOSTILE_SERVER_ENV, postgresAnswers, startRealServer, throwawayDatabase, type RealServer } from "../tests/hostile/server";
import { classReport, DEFAULT_SEED, prepareSuite, runSuite, summaryLine, violationReport, violationsOf } from "../tests/hostile/suite";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const RUNS = Number(arg("runs", "5000"));
const SEED = Number(arg("seed", String(DEFAULT_SEED)));
const ONLY = arg("only", "");
const FAMILIES = arg("families", "") ? arg("families", "").split(",") : undefined;
const PORT = Number(arg("port", "3480"));
const URL_ARG = arg("url", "");

async function benchOne(label: string, server: RealServer | { url: URL; origin: string; databaseUrl: string }): Promise<number> {
  const t0 = Date.now();
  const ctx = await prepareSuite(server);
  console.log(`${label}: server up, identities and fixtures ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const reports = await runSuite({ ctx, databaseUrl: server.databaseUrl, runs: RUNS, seed: SEED, families: FAMILIES, log: (l) => process.env.BENCH_VERBOSE && console.log(`  ${l}`) });
  console.log(`\n${label} (seed ${SEED}, ${RUNS} per family):`);
  for (const r of reports) console.log(`  ${summaryLine(r)}`);
  const total = reports.reduce((n, r) => n + r.requests, 0);
  console.log(`  ${"all".padEnd(9)} ${String(total).padStart(6)} requests in ${reports.reduce((s, r) => s + r.seconds, 0).toFixed(1)} s`);
  const statuses: Record<string, number> = {};
  for (const r of reports) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  console.log(`  statuses: ${Object.entries(statuses).map(([s, n]) => `${s}×${n}`).join(" ")}`);
  const violations = violationsOf(reports);
  if (violations) console.log(`\nviolations by class:\n${classReport(reports)}\n\n${process.env.BENCH_VERBOSE ? violationReport(reports) : "(BENCH_VERBOSE=1 lists every route with an example request)"}\n`);
  return violations;
}

async function main(): Promise<number> {
  console.log(`hostile-input bench (${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)})`);
  if (URL_ARG) {
    const url = new URL(URL_ARG);
    return benchOne("given server", { url, origin: `http://localhost:${url.port}`, databaseUrl: arg("database-url", "") });
  }
  let violations = 0;
  for (const dialect of ["sqlite", "postgresql"] as const) {
    if (ONLY && ONLY !== dialect) continue;
    if (dialect === "postgresql" && !(await postgresAnswers())) {
      console.log("postgresql: skipped — no server answers at 127.0.0.1:5432 (set LIGHTGATE_PG_ADMIN_URL)");
      continue;
    }
    const database = await throwawayDatabase(dialect, "bench");
    let server: RealServer | undefined;
    try {
      server = await startRealServer({ databaseUrl: database.url, port: PORT, env: HOSTILE_SERVER_ENV });
      violations += await benchOne(dialect, server);
    } finally {
      await server?.stop();
      await database.drop();
    }
  }
  console.log(violations ? `\n${violations} violations` : "\nno violations");
  return violations ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(2);
  },
);
