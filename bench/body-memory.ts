// `npm run bench:body-memory` — what hostile bodies cost the server's memory. Starts the production server
// (scripts/serve.ts, as `npm start` runs it; `--server next` for plain `next start`) on a throw-away SQLite
// database, samples its RSS (the process and its children, from /proc), and sends 20 concurrent 300 MB
// bodies — streamed from a generator, never held by the client — to each body-reading route: once with the
// length declared, once chunked; anonymous and, for the store and OTLP, with a runner's key; plus OTLP gzip
// bombs. Prints RSS before/after/max per route and what the clients got back. Target: RSS grows < 50 MB.
// Needs `npx next build` first. Options: --server lightgate|next --concurrency 20 --mb 300 --port 3320
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { createApiKey } from "../server/auth/api-keys";
import { openDatabase } from "../server/db/client";
import { resolveDbTarget } from "../server/db/config";
import { deployMigrations } from "../server/db/migrate";
import { sendBigBody, type BigBodyResult } from "../tests/helpers/big-body";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const PORT = Number(arg("port", "3320"));
const SERVER = arg("server", "lightgate");
const CONCURRENCY = Number(arg("concurrency", "20"));
const MB = 1024 * 1024;
const BODY = Number(arg("mb", "300")) * MB;
const BASE = `http://127.0.0.1:${PORT}`;
const TARGET_MB = 50;

/** RSS of a process and all its descendants, in MB. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let kb = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      continue;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return kb / 1024;
}

function startServer(databaseUrl: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const [cmd, args] =
      SERVER === "next" ? [path.join("node_modules", ".bin", "next"), ["start", "-p", String(PORT), "-H", "127.0.0.1"]] : [process.execPath, ["--import", "tsx", "scripts/serve.ts"]];
    const child = spawn(cmd, args, {
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", LIGHTGATE_DEMO: "0", PORT: String(PORT), HOSTNAME: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (/Ready|started server|Local:/i.test(out)) resolve(child);
    });
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => reject(new Error(`server exited (${code}): ${out.slice(-800)}`)));
  });
}

type Scenario = { route: string; who: string; path: string; method: "GET" | "POST"; headers: Record<string, string>; mode: "declared" | "chunked" | "gzip bomb" };

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-body-memory-"));
  const target = resolveDbTarget(`file:${path.join(dir, "bench.db")}`);
  await deployMigrations(target);
  const database = await openDatabase(target);
  const runner = (await createApiKey(database.db, { name: "body-memory runner", role: "runner" })).token;
  await database.close();

  const server = await startServer(target.url);
  const pid = server.pid!;
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(treeRss(pid)), 25);
  const settle = async (ms: number) => {
    await new Promise((r) => setTimeout(r, ms));
    const recent = samples.slice(-Math.max(1, Math.floor(ms / 25 / 2)));
    return recent.reduce((a, b) => a + b, 0) / recent.length;
  };
  try {
    const key = { authorization: `Bearer ${runner}` };
    const json = { "content-type": "application/json" };
    const pb = { "content-type": "application/x-protobuf" };
    // Warm every route first, so loading its code is not counted as the attack's cost.
    const warm = [
      () => fetch(`${BASE}/api/auth/sign-in/email`, { method: "POST", headers: { ...json, origin: BASE }, body: JSON.stringify({ email: "nobody@example.org", password: "wrong-password-123" }) }),
      () => fetch(`${BASE}/api/trpc/auth.setupStatus`),
      () => fetch(`${BASE}/v1/pointers/support-desk/approved-default`, { headers: key }),
      () => fetch(`${BASE}/v1/receipts/cand-none`, { headers: key }),
      () => fetch(`${BASE}/v1/agl/queues/rollouts/dequeue`, { method: "POST", headers: { ...json, ...key }, body: "{}" }),
      () => fetch(`${BASE}/v1/traces`, { method: "POST", headers: { ...pb, ...key }, body: new Uint8Array() }),
    ];
    for (let i = 0; i < 5; i++) for (const w of warm) await (await w()).arrayBuffer();

    const routes: Omit<Scenario, "mode">[] = [
      { route: "sign-in  /api/auth/sign-in/email", who: "anonymous", path: "/api/auth/sign-in/email", method: "POST", headers: { ...json, origin: BASE } },
      { route: "tRPC     /api/trpc/feedback.submit", who: "anonymous", path: "/api/trpc/feedback.submit", method: "POST", headers: json },
      { route: "pointers /v1/pointers/…", who: "runner key", path: "/v1/pointers/support-desk/approved-default", method: "GET", headers: key },
      { route: "receipts /v1/receipts/…", who: "runner key", path: "/v1/receipts/cand-none", method: "GET", headers: key },
      { route: "store    /v1/agl/spans", who: "anonymous", path: "/v1/agl/spans", method: "POST", headers: json },
      { route: "store    /v1/agl/spans", who: "runner key", path: "/v1/agl/spans", method: "POST", headers: { ...json, ...key } },
      { route: "OTLP     /v1/traces", who: "anonymous", path: "/v1/traces", method: "POST", headers: pb },
      { route: "OTLP     /v1/traces", who: "runner key", path: "/v1/traces", method: "POST", headers: { ...pb, ...key } },
    ];
    const scenarios: Scenario[] = routes.flatMap((r) => (["declared", "chunked"] as const).map((mode) => ({ ...r, mode })));
    scenarios.push({ route: "OTLP     /v1/traces", who: "runner key", path: "/v1/traces", method: "POST", headers: { ...pb, ...key, "content-encoding": "gzip" }, mode: "gzip bomb" });
    const bomb = gzipSync(Buffer.alloc(BODY), { level: 9 }); // 300 MB of zeros in ~300 KB

    console.log(`\nbody memory bench (${SERVER === "next" ? "plain next start" : "Lightgate server: scripts/serve.ts"}; ${CONCURRENCY} concurrent ${BODY / MB} MB bodies per row; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`);
    console.log(`${"route".padEnd(36)} ${"caller".padEnd(11)} ${"body".padEnd(10)} ${"answers".padEnd(14)} ${"sent MB".padStart(8)} ${"RSS before".padStart(10)} ${"after".padStart(7)} ${"max".padStart(7)}  growth (after / max)`);
    let worst = 0;
    for (const s of scenarios) {
      const before = await settle(1_000);
      const from = samples.length;
      const results: BigBodyResult[] = await Promise.all(
        Array.from({ length: CONCURRENCY }, () =>
          s.mode === "gzip bomb"
            ? sendBigBody(BASE, s.path, { method: s.method, headers: s.headers, total: bomb.length, mode: "length", body: () => bomb, timeoutMs: 60_000 })
            : sendBigBody(BASE, s.path, { method: s.method, headers: s.headers, total: BODY, mode: s.mode === "declared" ? "length" : "chunked", timeoutMs: 60_000 }),
        ),
      );
      const after = await settle(1_500);
      const max = Math.max(...samples.slice(from), after);
      const answers = new Map<number, number>();
      for (const r of results) answers.set(r.status, (answers.get(r.status) ?? 0) + 1);
      const sent = results.reduce((a, r) => a + r.sent, 0) / MB;
      const growth = max - before;
      worst = Math.max(worst, growth);
      const shown = [...answers].map(([st, n]) => `${n}×${st || "none"}`).join(" ");
      console.log(
        `${s.route.padEnd(36)} ${s.who.padEnd(11)} ${s.mode.padEnd(10)} ${shown.padEnd(14)} ${sent.toFixed(0).padStart(8)} ${before.toFixed(0).padStart(10)} ${after.toFixed(0).padStart(7)} ${max.toFixed(0).padStart(7)}  ${(after - before).toFixed(1).padStart(6)} / ${growth.toFixed(1)} MB${growth < TARGET_MB ? "" : "  ← over target"}`,
      );
    }
    console.log(`\nworst RSS growth over a row: ${worst.toFixed(1)} MB (target < ${TARGET_MB} MB): ${worst < TARGET_MB ? "met" : "MISSED"}`);
  } finally {
    clearInterval(sampler);
    server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
