// The suite's own checks, against a small real HTTP server over a real SQLite file that misbehaves on
// purpose: a refusal that still writes a row, a 500, a 4xx without a message, a request that must be
// refused but is not, a refusal that does not name its field. Each must be reported, once per route.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { HostileCase } from "./http";
import { openRowCounter, type RowCounter } from "./row-counts";
import { runFamily } from "./runner";

let server: http.Server;
let url: URL;
let dir: string;
let counter: RowCounter;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-runner-"));
  const file = path.join(dir, "t.db");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE things (id INTEGER PRIMARY KEY); CREATE TABLE AuditEvent (id INTEGER PRIMARY KEY)");
  const reply = (res: http.ServerResponse, status: number, body: string) => res.writeHead(status, { "content-type": "application/json" }).end(body);
  server = http.createServer((req, res) => {
    const p = req.url!.split("?")[0]!;
    if (p.endsWith("/health")) return reply(res, 200, '{"status":"ok"}');
    if (p === "/v1/agl/half") {
      db.prepare("INSERT INTO things DEFAULT VALUES").run();
      return reply(res, 400, '{"detail":"refused, but a row was written first"}');
    }
    if (p === "/v1/agl/audited") {
      db.prepare("INSERT INTO AuditEvent DEFAULT VALUES").run();
      return reply(res, 400, '{"detail":"refused and recorded"}');
    }
    if (p === "/v1/agl/crash") return reply(res, 500, '{"detail":"boom"}');
    if (p === "/v1/agl/mute") return res.writeHead(400).end();
    if (p === "/v1/agl/vague") return reply(res, 422, '{"detail":"something is wrong"}');
    if (p === "/v1/agl/accept") return reply(res, 200, "{}");
    return reply(res, 404, '{"detail":"Not Found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  counter = await openRowCounter(`file:${file}`);
});

afterAll(async () => {
  await counter?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (p: string, extra: Partial<HostileCase> = {}): HostileCase => ({ route: `GET ${p}`, method: "GET", path: p, headers: {}, ...extra });

it("reports half-writes, 5xx, unnamed refusals and requests that had to be refused, grouped by route", async () => {
  const fixed = [
    get("/v1/agl/half"),
    get("/v1/agl/half"),
    get("/v1/agl/audited", { refusalRecordedIn: [/^AuditEvent$/] }),
    get("/v1/agl/audited"),
    get("/v1/agl/crash"),
    get("/v1/agl/mute"),
    get("/v1/agl/vague", { mustName: "limit" }),
    get("/v1/agl/accept", { mustRefuse: "a cross-origin mutation" }),
    get("/v1/agl/nothing"),
  ];
  const report = await runFamily({ family: "self-test", url, counter, cases: { fixed, random: fc.constant(get("/v1/agl/nothing")) }, runs: fixed.length, seed: 1 });
  expect(report.requests).toBe(fixed.length);
  expect(report.tally).toEqual({ "5xx": 1, "unnamed-4xx": 2, "half-written": 3, "not-refused": 1, "no-answer": 0, "server-down": 0 });
  const byRoute = Object.fromEntries(report.violations.map((v) => [`${v.kind} ${v.route}`, v]));
  expect(byRoute["half-written GET /v1/agl/half"]).toMatchObject({ count: 2, status: 400, detail: 'refused, yet wrote: {"things":"0 → 1"}' });
  // The audit log may grow on a refusal only where the case says refusals are recorded.
  expect(byRoute["half-written GET /v1/agl/audited"]).toMatchObject({ count: 1 });
  expect(byRoute["5xx GET /v1/agl/crash"]?.status).toBe(500);
  expect(byRoute["unnamed-4xx GET /v1/agl/mute"]?.detail).toContain("no {\"detail\"} naming the problem");
  expect(byRoute["unnamed-4xx GET /v1/agl/vague"]?.detail).toContain('does not name "limit"');
  expect(byRoute["not-refused GET /v1/agl/accept"]?.detail).toBe("a cross-origin mutation, yet answered 200");
});
