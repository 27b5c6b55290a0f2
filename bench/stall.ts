// `npm run bench:stall` — the stalled-body attack of issue 23 against the production server (scripts/start.ts,
// as `npm start` runs it) on a throw-away SQLite database and, when one answers, a throw-away PostgreSQL
// database. A signed-in person calls a cheap tRPC mutation (passkeys.beginRegistration) again and again —
// first on a quiet server, then while 50 anonymous connections keep declaring 1 MiB tRPC bodies and sending
// 8 bytes (each re-opened as soon as the server cuts it), then while one runner key keeps 2 × 12 MiB OTLP and
// 2 × 12 MiB store bodies stalled one byte short (a second runner key exports spans and starts rollouts
// meanwhile). Prints p50/p99/max per phase; exits 1 if any mutation failed or took 1 s or more.
// Needs a current `npx next build` (start.ts builds first when the sources changed).
// Options: --seconds 15 (per attack phase) --anonymous 50 --only sqlite|postgresql --port 3490
import os from "node:os";
import { DEMO_PASSWORD, demoEmail } from "@/lib/auth/demo-accounts";
import { createApiKey } from "@/server/auth/api-keys";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { BODY_READ } from "@/server/http/body-limits";
import { HOSTILE_SERVER_ENV, postgresAnswers, startRealServer, throwawayDatabase, type RealServer } from "../tests/hostile/server";
import { percentile, signInOverHttp, stallBody, timedMutation, type Stall } from "../tests/helpers/stalled-bodies";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const SECONDS = Number(arg("seconds", "15"));
const ANONYMOUS = Number(arg("anonymous", "50"));
const ONLY = arg("only", "");
const PORT = Number(arg("port", "3490"));
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Timing = { ms: number[]; statuses: Record<string, number> };
const timing = (): Timing => ({ ms: [], statuses: {} });
const record = (t: Timing, status: number, ms: number) => {
  t.ms.push(ms);
  t.statuses[status] = (t.statuses[status] ?? 0) + 1;
};
const line = (label: string, t: Timing) =>
  `${label.padEnd(40)} n=${String(t.ms.length).padStart(4)}  p50 ${String(percentile(t.ms, 50)).padStart(4)} ms  p99 ${String(percentile(t.ms, 99)).padStart(4)} ms  max ${String(Math.max(...t.ms)).padStart(4)} ms  statuses ${Object.entries(t.statuses).map(([s, n]) => `${s}×${n}`).join(" ")}`;

/** Keeps `count` stalls open until `until`: each one the server cuts is replaced, as a patient attacker would. */
function sustain(count: number, open: () => Stall, until: number): { answers: Timing; done: Promise<void> } {
  const answers = timing();
  const live = new Set<Stall>();
  const keep = async () => {
    while (Date.now() < until) {
      const s = open();
      live.add(s);
      const answer = await Promise.race([s.answered, sleep(until - Date.now()).then(() => undefined)]);
      if (answer) record(answers, answer.status, answer.ms);
      if (answer === null || answer?.status === 503) await sleep(answer ? 1_000 : 50); // Retry-After: 1, or closed unanswered
      s.abort();
      live.delete(s);
    }
  };
  const done = Promise.all(Array.from({ length: count }, keep)).then(() => {
    for (const s of live) s.abort();
  });
  return { answers, done };
}

/** Calls `call` back to back until `until`, recording each answer's status and time. */
async function loop(until: number, call: () => Promise<{ status: number; ms: number }>, t: Timing, pauseMs = 100) {
  while (Date.now() < until) {
    const r = await call();
    record(t, r.status, r.ms);
    await sleep(pauseMs);
  }
}

async function timedFetch(url: string, init: RequestInit) {
  const t0 = Date.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { status: res.status, ms: Date.now() - t0 };
}

async function benchOne(label: string, server: RealServer): Promise<boolean> {
  const base = server.url.origin;
  const cookie = await signInOverHttp(base, server.origin, demoEmail("release_approver"), DEMO_PASSWORD);
  const database = await openDatabase(resolveDbTarget(server.databaseUrl));
  const [a, b] = [(await createApiKey(database.db, { name: "stall runner A", role: "runner" })).token, (await createApiKey(database.db, { name: "stall runner B", role: "runner" })).token];
  await database.close();
  const mutate = () => timedMutation(base, cookie, server.origin);
  await mutate(); // Next loads the tRPC route on its first call
  const results: [string, Timing][] = [];

  const quiet = timing();
  await loop(Date.now() + 3_000, mutate, quiet);
  results.push(["mutations, quiet server", quiet]);

  let until = Date.now() + SECONDS * 1000;
  const anon = sustain(ANONYMOUS, () => stallBody(base, "/api/trpc/approvals.beginApproval", { headers: { "content-type": "application/json" }, declared: MiB, send: 8 }), until);
  await sleep(500);
  const underAnon = timing();
  await loop(until, mutate, underAnon);
  await anon.done;
  results.push([`mutations, ${ANONYMOUS} anonymous stalls`, underAnon], ["  the stalls' answers", anon.answers]);

  until = Date.now() + SECONDS * 1000;
  const otlpA = { "content-type": "application/x-protobuf", authorization: `Bearer ${a}` };
  const storeA = { "content-type": "application/json", authorization: `Bearer ${a}` };
  const runner = [
    sustain(2, () => stallBody(base, "/v1/traces", { headers: otlpA, declared: 12 * MiB, send: 12 * MiB - 1 }), until),
    sustain(2, () => stallBody(base, "/v1/agl/rollouts", { headers: storeA, declared: 12 * MiB, send: 12 * MiB - 1 }), until),
  ];
  await sleep(1_000);
  const underRunner = timing();
  const spans = timing();
  const rollouts = timing();
  await Promise.all([
    loop(until, mutate, underRunner),
    loop(until, () => timedFetch(`${base}/v1/traces`, { method: "POST", headers: { "content-type": "application/x-protobuf", authorization: `Bearer ${b}` }, body: new Uint8Array() }), spans),
    loop(until, () => timedFetch(`${base}/v1/agl/rollouts`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${b}` }, body: JSON.stringify({ input: { bench: "stall" } }) }), rollouts),
  ]);
  await Promise.all(runner.map((r) => r.done));
  results.push(["mutations, runner A stalls 2×12 MiB ×2", underRunner], ["  runner B's OTLP exports", spans], ["  runner B's rollouts", rollouts]);
  const stalled = timing();
  for (const r of runner) for (const [s, n] of Object.entries(r.answers.statuses)) stalled.statuses[s] = (stalled.statuses[s] ?? 0) + n;
  stalled.ms = runner.flatMap((r) => r.answers.ms);
  results.push(["  runner A's stalls' answers", stalled]);

  console.log(`\n${label} (read window ${BODY_READ.windowMs / 1000} s, at least ${BODY_READ.minBytesPerSecond / 1024} KiB/s):`);
  for (const [name, t] of results) console.log(`  ${line(name, t)}`);
  const mutations = [quiet, underAnon, underRunner];
  const ingest = [spans, rollouts];
  const ok = mutations.every((t) => t.ms.length > 0 && Math.max(...t.ms) < 1_000 && Object.keys(t.statuses).every((s) => s === "200")) && ingest.every((t) => Object.keys(t.statuses).every((s) => s.startsWith("2")));
  console.log(`  ${ok ? "held" : "FAILED"}: every mutation ${ok ? "answered 200 in < 1 s and runner B was never refused" : "must answer 200 in < 1 s and runner B must never be refused"}`);
  return ok;
}

async function main(): Promise<number> {
  console.log(`stall bench (${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}; ${SECONDS} s per attack)`);
  let failed = 0;
  for (const dialect of ["sqlite", "postgresql"] as const) {
    if (ONLY && ONLY !== dialect) continue;
    if (dialect === "postgresql" && !(await postgresAnswers())) {
      console.log("postgresql: skipped — no server answers at 127.0.0.1:5432 (set LIGHTGATE_PG_ADMIN_URL)");
      continue;
    }
    const database = await throwawayDatabase(dialect, "stall");
    let server: RealServer | undefined;
    try {
      server = await startRealServer({ databaseUrl: database.url, port: PORT, env: HOSTILE_SERVER_ENV });
      if (!(await benchOne(dialect, server))) failed++;
    } finally {
      await server?.stop();
      await database.drop();
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(2);
  },
);
