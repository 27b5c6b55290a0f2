// Budgets that strangers cannot hold (issue 23, finding 2 and the request shapes of finding 6), against the
// production server itself (scripts/serve.ts beside Next.js, a child process) on SQLite and PostgreSQL:
// bodies are counted as they arrive, per caller, a stalled body is cut by its own timer, an endless body is
// cut on every path, and no request shape makes the process throw.
import net from "node:net";
import protobuf from "protobufjs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { BODY_READ } from "@/server/http/body-limits";
import { makePerson, TEST_PASSWORD } from "../../helpers/auth";
import { sendBigBody } from "../../helpers/big-body";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { serveUnavailable, startServeProcess, type ServeProcess } from "../../helpers/serve-process";
import { signInOverHttp, stallBody, timedMutation, type Stall } from "../../helpers/stalled-bodies";

const KiB = 1024;
const MiB = 1024 * KiB;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const unavailable = serveUnavailable();
/** An answer this fast did not wait for any stalled body to be cut (BODY_READ gives one 5 s). */
const PROMPT_MS = 3_000;

const Status = new protobuf.Type("Status").add(new protobuf.Field("code", 1, "int32")).add(new protobuf.Field("message", 2, "string"));
new protobuf.Root().define("google.rpc").add(Status);

/** A valid OTLP/JSON export of `bytes` (padded with whitespace): the server stores nothing, answers 200. */
const otlpJson = (bytes: number) => Buffer.concat([Buffer.from('{"resourceSpans":[]}'), Buffer.alloc(Math.max(0, bytes - 20), 0x20)]);

describeEachDialect("stalled and endless request bodies against scripts/serve.ts", (dialect) => {
  let db: TestDatabase;
  let srv: ServeProcess;
  let cookie: string;
  let runnerA: string;
  let runnerB: string;
  const stalls: Stall[] = [];

  beforeAll(async () => {
    if (unavailable) return;
    db = await createTestDatabase(dialect, "stall");
    const person = await makePerson(db, [{ role: "viewer", agent: null }]);
    runnerA = (await createApiKey(db.db, { name: "runner A", role: "runner" })).token;
    runnerB = (await createApiKey(db.db, { name: "runner B", role: "runner" })).token;
    // One trusted proxy hop: strangers "from" many addresses (X-Forwarded-For), each with a share of its own.
    srv = await startServeProcess(db.url, { LIGHTGATE_TRUSTED_PROXY_HOPS: "1" });
    cookie = await signInOverHttp(srv.base, srv.origin, person.email, TEST_PASSWORD);
    await timedMutation(srv.base, cookie, srv.origin); // Next loads the tRPC route on its first call: not what is measured
  }, 180_000);

  afterAll(async () => {
    for (const s of stalls) s.abort();
    await srv?.stop();
    await db?.drop();
  });

  it.skipIf(unavailable)("50 anonymous connections declaring 1 MiB and sending 8 bytes: a signed-in person's mutation still answers, promptly", { timeout: 60_000 }, async () => {
    const mine = Array.from({ length: 50 }, () => stallBody(srv.base, "/api/trpc/approvals.beginApproval", { headers: { "content-type": "application/json" }, declared: MiB, send: 8 }));
    stalls.push(...mine);
    await Promise.all(mine.map((s) => s.sent));
    await sleep(300); // every stalled request has reached the server
    for (let i = 0; i < 5; i++) {
      const m = await timedMutation(srv.base, cookie, srv.origin);
      expect(m.status, m.text.slice(0, 300)).toBe(200);
      // Well inside the 5 s a stalled body is given: it never waited for a stall to be cut. (Under 1 s on a quiet
      // machine — npm run bench:stall — but this suite shares two cores with the e2e and the other suites.)
      expect(m.ms).toBeLessThan(PROMPT_MS);
    }
    for (const s of mine) s.abort();
  });

  it.skipIf(unavailable)("strangers from 20 addresses holding 1 MiB each cannot take the share of tRPC's budget kept for signed-in people", { timeout: 60_000 }, async () => {
    const mine = Array.from({ length: 20 }, (_, i) =>
      stallBody(srv.base, "/api/trpc/approvals.beginApproval", { headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${i + 1}` }, declared: MiB, send: MiB - 1 }),
    );
    stalls.push(...mine);
    await Promise.race([Promise.all(mine.map((s) => s.sent)), sleep(3_000)]);
    await sleep(300);
    const m = await timedMutation(srv.base, cookie, srv.origin);
    expect(m.status, m.text.slice(0, 300)).toBe(200); // the person is not turned away…
    expect(m.ms).toBeLessThan(PROMPT_MS);
    const refused = (await Promise.all(mine.map((s) => Promise.race([s.answered, sleep(200).then(() => null)])))).filter((a) => a?.status === 503);
    expect(refused.length).toBeGreaterThan(0); // …the strangers past what they may hold are
    for (const s of mine) s.abort();
  });

  it.skipIf(unavailable)("one runner key stalling 2 × 12 MiB (OTLP and store) does not stop another key's span ingest", { timeout: 60_000 }, async () => {
    const otlp = { "content-type": "application/x-protobuf", authorization: `Bearer ${runnerA}` };
    const store = { "content-type": "application/json", authorization: `Bearer ${runnerA}` };
    const mine = [
      stallBody(srv.base, "/v1/traces", { headers: otlp, declared: 12 * MiB, send: 12 * MiB - 1 }),
      stallBody(srv.base, "/v1/traces", { headers: otlp, declared: 12 * MiB, send: 12 * MiB - 1 }),
      stallBody(srv.base, "/v1/agl/rollouts", { headers: store, declared: 12 * MiB, send: 12 * MiB - 1 }),
      stallBody(srv.base, "/v1/agl/rollouts", { headers: store, declared: 12 * MiB, send: 12 * MiB - 1 }),
    ];
    stalls.push(...mine);
    await Promise.race([Promise.all(mine.map((s) => s.sent)), sleep(3_000)]);
    await sleep(300);
    const t0 = Date.now();
    const spans = await fetch(`${srv.base}/v1/traces`, { method: "POST", headers: { "content-type": "application/x-protobuf", authorization: `Bearer ${runnerB}` }, body: new Uint8Array() });
    expect(spans.status).toBe(200);
    const rollout = await fetch(`${srv.base}/v1/agl/rollouts`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${runnerB}` }, body: JSON.stringify({ input: { from: "runner B" } }) });
    expect(rollout.status, await rollout.clone().text()).toBe(201);
    expect(Date.now() - t0).toBeLessThan(2_000);
    for (const s of mine) s.abort();
  });

  it.skipIf(unavailable)("a stalled body is answered 408 in its family's shape within the read window, its connection closed, its budget free at once", { timeout: 60_000 }, async () => {
    // A window that started just before the stall, plus one full window — counted from the request's start, so
    // also the seconds the 12 MiB before the stall take to send on a loaded machine (13.5 s seen beside the e2e).
    const deadline = BODY_READ.windowMs * 2 + 6_000;
    const otlpHeaders = { "content-type": "application/x-protobuf", authorization: `Bearer ${runnerA}` };
    const otlp = stallBody(srv.base, "/v1/traces", { headers: otlpHeaders, declared: 12 * MiB, send: 12 * MiB - 1 });
    const trpc = stallBody(srv.base, "/api/trpc/approvals.beginApproval", { headers: { "content-type": "application/json" }, declared: 1_000, send: 8 });
    stalls.push(otlp, trpc);
    const [o, t] = await Promise.all([Promise.race([otlp.answered, sleep(deadline).then(() => null)]), Promise.race([trpc.answered, sleep(deadline).then(() => null)])]);
    expect(o?.status).toBe(408);
    expect(o!.ms).toBeLessThan(deadline);
    expect(o!.headers.connection).toBe("close");
    expect(o!.headers["content-type"]).toBe("application/x-protobuf");
    const status = Status.decode(o!.body) as unknown as { code: number; message: string };
    expect(status.code).toBe(4); // DEADLINE_EXCEEDED
    expect(status.message).toMatch(/stalled/);
    expect(t?.status).toBe(408);
    expect(t!.headers.connection).toBe("close");
    const item = JSON.parse(t!.body.toString()) as { error: { json: { message: string; data: { code: string; httpStatus: number } } } };
    expect(item.error.json.data).toMatchObject({ code: "TIMEOUT", httpStatus: 408 });
    expect(item.error.json.message).toMatch(/stalled/);
    expect(await Promise.race([otlp.closed, sleep(3_000).then(() => -1)])).toBeGreaterThan(0); // the server closed it
    // The 12 MiB it held are free: the same key sends a 12 MiB export right after (with the stalled bytes still
    // counted it would pass its share, and a budget never waits: it answers 503 at once — ServerBusyError).
    const big = await fetch(`${srv.base}/v1/traces`, { method: "POST", headers: { ...otlpHeaders, "content-type": "application/json" }, body: otlpJson(12 * MiB) });
    expect(big.status, await big.clone().text()).toBe(200);
  });

  it.skipIf(unavailable)("an endless chunked body is cut, bytes and time bounded, on a page, sign-in, / and /v1/pointers", { timeout: 90_000 }, async () => {
    for (const path of ["/rollouts", "/api/auth/sign-in/email", "/", "/v1/pointers"]) {
      const t0 = Date.now();
      const res = await sendBigBody(srv.base, path, { headers: { "content-type": "application/json", origin: srv.origin }, total: 64 * 1024 * MiB, mode: "chunked", timeoutMs: 10_000 });
      const ms = Date.now() - t0;
      expect(res.status, `${path}: ${res.sent} bytes sent in ${ms} ms`).toBe(413);
      expect(res.cutOff, path).toBe(true);
      expect(res.sent, path).toBeLessThan(32 * MiB); // the limit (64 KiB at most here) plus what socket buffers take
      expect(ms, path).toBeLessThan(3_000);
    }
  });

  it.skipIf(unavailable)("OPTIONS and DELETE on / and /v1/pointers with an unframed or broken-off body: no uncaught exception, the server still answers", { timeout: 60_000 }, async () => {
    const port = Number(new URL(srv.base).port);
    const shapes = {
      unframed: (m: string, p: string) => `${m} ${p} HTTP/1.1\r\nHost: localhost\r\n\r\nsome body bytes {"a":1}`,
      "broken off": (m: string, p: string) => `${m} ${p} HTTP/1.1\r\nHost: localhost\r\ncontent-length: 1000\r\n\r\n{"a":`,
      "chunked, broken off": (m: string, p: string) => `${m} ${p} HTTP/1.1\r\nHost: localhost\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n`,
    };
    for (const method of ["OPTIONS", "DELETE"]) {
      for (const path of ["/", "/v1/pointers"]) {
        for (const shape of Object.values(shapes)) {
          const socket = net.connect(port, "127.0.0.1");
          socket.on("error", () => {});
          await new Promise<void>((resolve) => socket.once("connect", resolve));
          socket.write(shape(method, path));
          await sleep(200);
          socket.destroy();
        }
      }
    }
    await sleep(1_000);
    expect(srv.output()).not.toMatch(/uncaughtException|unhandledRejection/);
    expect((await fetch(`${srv.base}/api/health`)).status).toBe(200);
  });
  // Body budgets live in the process, not the database: PostgreSQL in the full run.
}, { postgresql: "full-run" });
