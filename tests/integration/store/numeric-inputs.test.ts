// Every numeric field of the store's REST inputs refuses nonsense — negatives, fractions where an integer
// is meant, NaN and ±Infinity (JSON's 1e400), huge values, milli/nanosecond stamps where epoch seconds are
// meant — with a 4xx naming the field, and writes nothing; the values Agent Lightning 0.3's clients send
// (and the reference accepts) still pass. Over real HTTP on the store's fast path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect } from "../../helpers/db";
import { makeSpan } from "../../helpers/store";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

/** A JSON body with `$N` standing for a raw number literal (so 1e400, -0.5 and friends go out as written). */
const withNumber = (template: unknown, literal: string) => JSON.stringify(template).replace('"$N"', literal);

const NEGATIVE = ["-5", "-1", "-0.5"];
const NOT_FINITE = ["1e400", "-1e400"];
const FRACTION = ["1.5"];

describeEachDialect("numeric store inputs", (dialect) => {
  let s: StoreServer;
  let ids: { rollout: string; attempt: string; finished: string };
  beforeAll(async () => {
    s = await startStoreServer(dialect, "numbers");
    const r = await s.client.startRollout({ seed: true }, { worker_id: "Worker-0" });
    const done = await s.client.startRollout({ done: true });
    await s.client.request("POST", `/rollouts/${done.rollout_id}`, { json: { status: "succeeded" } });
    ids = { rollout: r.rollout_id, attempt: r.attempt.attempt_id, finished: done.rollout_id }; // waits on `finished` return at once
  });
  afterAll(() => s?.close());

  async function counts(): Promise<string> {
    const rows = await s.database.db.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT (SELECT COUNT(*) FROM store_rollouts) AS r, (SELECT COUNT(*) FROM store_attempts) AS a, (SELECT COUNT(*) FROM store_spans) AS s,
              (SELECT COUNT(*) FROM store_resources_versions) AS v, (SELECT COUNT(*) FROM store_workers) AS w,
              (SELECT MAX(last_heartbeat_time) FROM store_attempts) AS h`,
    );
    return JSON.stringify(rows[0], (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
  }

  const post = (path: string, body: string) => fetch(`${s.url}/v1/agl${path}`, { method: "POST", headers: { authorization: `Bearer ${s.keys.algorithm}`, "content-type": "application/json" }, body });

  /** A refusal names the field: a 422 by its `loc`, a 400 (the reference's pagination checks) in its message. */
  async function expectRefused(res: Response, field: string) {
    const text = await res.text();
    expect([400, 422], text).toContain(res.status);
    const { detail } = JSON.parse(text) as { detail: string | { loc: (string | number)[]; msg: string }[] };
    if (typeof detail === "string") expect(detail.toLowerCase()).toContain(field.split(".").at(-1)!.toLowerCase());
    else expect(detail.map((d) => d.loc.join("."))).toContain(field);
  }

  type Case = { path: string; template: unknown; field: string; bad: string[]; good: string[] };
  const span = () => ({ ...makeSpan(ids.rollout, ids.attempt, 1, "n"), span_id: `s${Math.random().toString(16).slice(2, 10)}` });
  const cases = (): Case[] => [
    { path: "/queues/rollouts/dequeue", template: { limit: "$N" }, field: "body.limit", bad: [...NEGATIVE, ...NOT_FINITE, ...FRACTION, "1e300", "10001"], good: ["0", "1", "3"] },
    ...(["timeout_seconds", "unresponsive_seconds"] as const).map((k) => ({
      path: "/queues/rollouts/enqueue",
      template: { rollouts: [{ input: 1, config: { [k]: "$N" } }] },
      field: `body.rollouts.0.config.${k}`,
      bad: [...NEGATIVE, ...NOT_FINITE, "1e300", "1e10"],
      good: ["0", "0.5", "3600", "null"],
    })),
    { path: "/queues/rollouts/enqueue", template: { rollouts: [{ input: 1, config: { max_attempts: "$N" } }] }, field: "body.rollouts.0.config.max_attempts", bad: ["0", ...NEGATIVE, ...FRACTION, ...NOT_FINITE, "2147483648"], good: ["1", "3"] },
    { path: "/rollouts", template: { input: 1, config: { timeout_seconds: "$N" } }, field: "body.config.timeout_seconds", bad: ["-1", "1e400"], good: ["60"] },
    { path: `/rollouts/${ids.rollout}/attempts/${ids.attempt}`, template: { last_heartbeat_time: "$N" }, field: "body.last_heartbeat_time", bad: [...NEGATIVE, ...NOT_FINITE, String(Date.now()), "1.7e18"], good: [String(Date.now() / 1000)] },
    { path: "/waits/rollouts", template: { rollout_ids: [ids.finished], timeout: "$N" }, field: "body.timeout", bad: [...NEGATIVE, ...NOT_FINITE, "1e300"], good: ["0", "0.0", "0.1", "null"] },
  ];
  const spanCases = (): { field: string; make: (v: string) => string; bad: string[]; good: string[] }[] => [
    { field: "body.sequence_id", make: (v) => withNumber({ ...span(), sequence_id: "$N" }, v), bad: [...NEGATIVE, ...FRACTION, ...NOT_FINITE, "2147483648"], good: ["1", "7"] },
    { field: "body.start_time", make: (v) => withNumber({ ...span(), start_time: "$N" }, v), bad: [...NEGATIVE, ...NOT_FINITE, String(Date.now()), "1.7e18"], good: [String(Date.now() / 1000), "0", "null"] },
    { field: "body.end_time", make: (v) => withNumber({ ...span(), end_time: "$N" }, v), bad: ["-1", "1e400"], good: [String(Date.now() / 1000)] },
    { field: "body.events.0.timestamp", make: (v) => withNumber({ ...span(), events: [{ name: "e", attributes: {}, timestamp: "$N" }] }, v), bad: ["-1", "1e400", String(Date.now())], good: [String(Date.now() / 1000), "null"] },
  ];

  it("refuses nonsense numbers in request bodies with a 4xx naming the field, and writes nothing", async () => {
    for (const c of cases()) {
      for (const v of c.bad) {
        const before = await counts();
        await expectRefused(await post(c.path, withNumber(c.template, v)), c.field);
        expect(await counts(), `${c.path} ${c.field}=${v}`).toBe(before);
      }
    }
    for (const c of spanCases()) {
      for (const v of c.bad) {
        const before = await counts();
        await expectRefused(await post("/spans", c.make(v)), c.field);
        expect(await counts(), `spans ${c.field}=${v}`).toBe(before);
      }
    }
  });

  it("accepts the values Agent Lightning's clients send", async () => {
    for (const c of cases()) for (const v of c.good) expect((await post(c.path, withNumber(c.template, v))).status, `${c.path} ${c.field}=${v}`).toBeLessThan(300);
    for (const c of spanCases()) for (const v of c.good) expect((await post("/spans", c.make(v))).status, `spans ${c.field}=${v}`).toBeLessThan(300);
  });

  describe("pagination", () => {
    const searches = () => ["/rollouts/search", `/rollouts/${ids.rollout}/attempts/search`, "/workers/search", "/spans/search"];
    const extra = (path: string) => (path === "/spans/search" ? { rollout_id: ids.rollout } : {});

    it("refuses bad limits and offsets in search bodies and query strings, naming the field", async () => {
      for (const path of searches()) {
        for (const v of ["0", "-2", "-5", ...FRACTION, ...NOT_FINITE, "1e300"]) await expectRefused(await post(path, withNumber({ ...extra(path), limit: "$N" }, v)), "body.limit");
        for (const v of ["-1", ...FRACTION, ...NOT_FINITE]) await expectRefused(await post(path, withNumber({ ...extra(path), offset: "$N" }, v)), "body.offset");
      }
      const get = (q: string) => fetch(`${s.url}/v1/agl/rollouts?${q}`, { headers: { authorization: `Bearer ${s.keys.runner}` } });
      for (const v of ["-5", "0", "1.5", "NaN", "1e3", "Infinity", "99999999999999999999", "+5", ""]) await expectRefused(await get(`limit=${encodeURIComponent(v)}`), "query.limit");
      for (const v of ["-1", "1.5", "NaN"]) await expectRefused(await get(`offset=${encodeURIComponent(v)}`), "query.offset");
      const spans = await fetch(`${s.url}/v1/agl/spans?rollout_id=${ids.rollout}&limit=-3`, { headers: { authorization: `Bearer ${s.keys.runner}` } });
      await expectRefused(spans, "query.limit");
    });

    it("accepts -1 (no limit), positive limits, offsets ≥ 0 and huge offsets", async () => {
      for (const path of searches()) {
        for (const body of [{}, { limit: -1 }, { limit: 1, offset: 0 }, { limit: 5, offset: 1_000_000_000_000 }]) expect((await post(path, JSON.stringify({ ...extra(path), ...body }))).status, `${path} ${JSON.stringify(body)}`).toBe(200);
      }
    });
  });
});
