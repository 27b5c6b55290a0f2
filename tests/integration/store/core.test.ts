// The store core on a real database (both dialects): the §2.2 state machine, queue, attempts with reasons,
// spans as heartbeats, sequence ids, resources with versions, workers, watchdog, wait and statistics.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, makeSpan, type StoreFixture } from "../../helpers/store";
import { StoreNotFoundError } from "@/server/store";
import { withinBudget } from "@/server/store/retention";
import { retentionEveryMs } from "@/server/store/runtime";

describeEachDialect("store core", (dialect) => {
  let f: StoreFixture;
  beforeAll(async () => {
    f = await createTestStore(dialect, "core");
  });
  afterAll(() => f?.drop());

  it("enqueues FIFO and dequeues each rollout once with attempt 1 (reason first)", async () => {
    const made = await f.store.enqueueRollouts([{ input: { i: 0 } }, { input: { i: 1 } }, { input: { i: 2 } }]);
    expect(made.map((r) => r.status)).toEqual(["queuing", "queuing", "queuing"]);
    expect(made[0]!.config).toEqual({ timeout_seconds: null, unresponsive_seconds: null, max_attempts: 1, retry_condition: [] });
    expect(made[0]!.metadata).toEqual({});
    const a = await f.store.dequeueRollouts({ limit: 2, worker_id: "w1" });
    const b = await f.store.dequeueRollouts({ limit: 5, worker_id: "w2" });
    expect(a.map((r) => r.rollout_id)).toEqual(made.slice(0, 2).map((r) => r.rollout_id));
    expect(b.map((r) => r.rollout_id)).toEqual([made[2]!.rollout_id]);
    expect(b[0]!.attempt.sequence_id).toBe(1);
    expect(b[0]!.status).toBe("preparing");
    expect(await f.store.dequeueRollouts({ limit: 1, worker_id: "w3" })).toEqual([]);
    expect((await f.store.getWorker("w3"))?.status).toBe("idle");
    expect((await f.store.getWorker("w2"))).toMatchObject({ status: "busy", current_rollout_id: made[2]!.rollout_id });
    const attempts = await f.store.queryAttempts(made[0]!.rollout_id);
    expect(attempts.items.map((x) => x.reason)).toEqual(["first"]);
  });

  it("retries failed attempts up to max_attempts, then fails; reasons record why", async () => {
    const [r] = await f.store.enqueueRollouts([{ input: "retry", config: { max_attempts: 3, retry_condition: ["failed", "timeout"] } }]);
    const statuses: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const [claim] = await f.store.dequeueRollouts({ limit: 1, worker_id: "wr" });
      expect(claim!.rollout_id).toBe(r!.rollout_id);
      expect(claim!.attempt.sequence_id).toBe(k);
      await f.store.updateAttempt(r!.rollout_id, claim!.attempt.attempt_id, { status: "failed" });
      statuses.push((await f.store.getRollout(r!.rollout_id))!.status);
    }
    expect(statuses).toEqual(["requeuing", "requeuing", "failed"]);
    const final = await f.store.getRollout(r!.rollout_id);
    expect(final!.end_time).not.toBeNull();
    const reasons = (await f.store.queryAttempts(r!.rollout_id)).items.map((a) => a.reason);
    expect(reasons).toEqual(["first", "retry_after_failed", "retry_after_failed"]);
    expect((await f.store.getWorker("wr"))?.status).toBe("idle");
  });

  it("classifies expected resamples and manual attempts", async () => {
    const [r] = await f.store.enqueueRollouts([{ input: "resample", metadata: { "lightgate.expected_attempts": 2 } }]);
    const [c1] = await f.store.dequeueRollouts({});
    await f.store.updateAttempt(r!.rollout_id, c1!.attempt.attempt_id, { status: "succeeded" });
    await f.store.updateRollout(r!.rollout_id, { status: "queuing" });
    const [c2] = await f.store.dequeueRollouts({});
    expect(c2!.attempt.sequence_id).toBe(2);
    const third = await f.store.startAttempt(r!.rollout_id, "wm");
    expect(third.attempt.sequence_id).toBe(3);
    expect((await f.store.queryAttempts(r!.rollout_id)).items.map((a) => a.reason)).toEqual(["first", "expected_resample", "manual"]);
  });

  it("treats a span as a heartbeat and returns null for a duplicate", async () => {
    const started = await f.store.startRollout({ input: "spans" });
    const span = makeSpan(started.rollout_id, started.attempt.attempt_id, 1, "first", { kind: "SpanKind.INTERNAL" });
    expect(await f.store.addSpan(span)).toMatchObject({ name: "first" });
    expect(await f.store.addSpan(span)).toBeNull();
    const after = await f.store.getRollout(started.rollout_id);
    expect(after!.status).toBe("running");
    expect("attempt" in after! && after.attempt.status).toBe("running");
    expect("attempt" in after! && after.attempt.last_heartbeat_time).toBeGreaterThan(0);
    const stored = await f.store.querySpans({ rollout_id: started.rollout_id, attempt_id: "latest" });
    expect(stored.items[0]).toEqual(span); // unknown keys survive
    expect(await f.store.nextSpanSequenceIds([started.rollout_id])).toEqual([2]);
  });

  it("returns only the spans a batch added: not stored ones, not in-batch repeats, across insert chunks", async () => {
    const s = await f.store.startRollout({ input: "dups" });
    const span = (n: number, name = `s${n}`) => makeSpan(s.rollout_id, s.attempt.attempt_id, n, name);
    expect((await f.store.addSpans([span(1), span(2)])).map((x) => x.name)).toEqual(["s1", "s2"]);
    // 200 spans: the first 150-row chunk is all new, the second repeats a stored span and one of its own.
    const batch = Array.from({ length: 200 }, (_, i) => span(i + 3));
    batch[170] = span(1, "s1 again");
    batch[190] = span(180, "s180 again");
    const added = await f.store.addSpans(batch);
    const expected = batch.filter((_, i) => i !== 170 && i !== 190).map((x) => x.name);
    expect(added.map((x) => x.name)).toEqual(expected);
    const stored = await f.store.querySpans({ rollout_id: s.rollout_id, limit: -1 });
    expect(stored.items.map((x) => x.name)).toEqual(["s1", "s2", ...expected]);
    expect(await f.store.addSpans([span(2, "s2 again")])).toEqual([]);
  });

  it("numbers spans sent without sequence ids after the stored ones, also when the batch repeats a stored span", async () => {
    const s = await f.store.startRollout({ input: "numbering" });
    // OTLP spans without the sequence attribute: the store allocates (sequence_id -1).
    const span = (n: number) => ({ ...makeSpan(s.rollout_id, s.attempt.attempt_id, n, `n${n}`), sequence_id: -1 });
    expect((await f.store.addSpans([span(1), span(2)])).map((x) => x.sequence_id)).toEqual([1, 2]);
    // On PostgreSQL the first try (a plain insert) fails on n2 and the careful run takes over: the batch is
    // numbered once, in order, n2's number left unused — as the careful run alone numbers it.
    const added = await f.store.addSpans([span(3), span(2), span(4)]);
    expect(added.map((x) => [x.name, x.sequence_id])).toEqual([["n3", 3], ["n4", 5]]);
    expect(await f.store.nextSpanSequenceIds([s.rollout_id])).toEqual([6]);
    const stored = await f.store.querySpans({ rollout_id: s.rollout_id, limit: -1 });
    expect(stored.items.map((x) => [x.name, x.sequence_id])).toEqual([["n1", 1], ["n2", 2], ["n3", 3], ["n4", 5]]);
  });

  it("adds nothing when one span of a batch names an unknown attempt", async () => {
    const s = await f.store.startRollout({ input: "half" });
    const good = makeSpan(s.rollout_id, s.attempt.attempt_id, 1, "good");
    const bad = makeSpan(s.rollout_id, "at-missing", 2, "bad");
    await expect(f.store.addSpans([good, bad])).rejects.toBeInstanceOf(StoreNotFoundError);
    expect((await f.store.querySpans({ rollout_id: s.rollout_id })).total).toBe(0);
  });

  it("allocates sequence ids per rollout and raises the counter to explicit ids", async () => {
    const a = await f.store.startRollout({ input: "seq-a" });
    const b = await f.store.startRollout({ input: "seq-b" });
    expect(await f.store.nextSpanSequenceIds([a.rollout_id, b.rollout_id, a.rollout_id])).toEqual([1, 1, 2]);
    await f.store.addSpan(makeSpan(a.rollout_id, a.attempt.attempt_id, 10, "explicit"));
    expect(await f.store.nextSpanSequenceIds([a.rollout_id])).toEqual([11]);
    const auto = await f.store.addSpans([makeSpan(a.rollout_id, a.attempt.attempt_id, -1, "auto", { span_id: "00000000000000aa" })]);
    expect(auto[0]!.sequence_id).toBe(12);
  });

  it("keeps every resources version with its digest; update is an upsert", async () => {
    const llm = { resource_type: "llm", endpoint: "http://x/v1", model: "m", api_key: null, sampling_parameters: {} };
    const added = await f.store.addResources({ main: llm });
    expect(added.resources_id).toMatch(/^rs-[0-9a-f]{12}$/);
    expect(added.version).toBe(1);
    const v2 = await f.store.updateResources(added.resources_id, { main: { ...llm, model: "m2" } });
    expect(v2.version).toBe(2);
    const manual = await f.store.updateResources("manual-id", {});
    expect(manual.version).toBe(1);
    expect((await f.store.getLatestResources())!.resources_id).toBe("manual-id");
    const versions = await f.store.resourcesVersions(added.resources_id);
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[0]!.digest).not.toBe(versions[1]!.digest);
    expect(versions[1]!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // Rollouts without resources_id bind to the latest resources at enqueue time.
    const [r] = await f.store.enqueueRollouts([{ input: 1 }]);
    expect(r!.resources_id).toBe("manual-id");
    expect((await f.store.getRollout(r!.rollout_id))!.resources_id).toBe("manual-id");
    // Past one statement's 100 rows, mixed with rollouts that name their resources: stored as answered.
    const batch = await f.store.enqueueRollouts(Array.from({ length: 150 }, (_, i) => ({ input: i, resources_id: i % 7 === 0 ? added.resources_id : null })));
    const stored = await Promise.all(batch.map((b) => f.store.getRollout(b.rollout_id)));
    const expected = batch.map((_, i) => (i % 7 === 0 ? added.resources_id : "manual-id"));
    expect(batch.map((b) => b.resources_id)).toEqual(expected);
    expect(stored.map((s) => s!.resources_id)).toEqual(expected);
  });

  it("watchdog marks a silent attempt unresponsive and requeues it by policy", async () => {
    const [r] = await f.store.enqueueRollouts([{ input: "wd", config: { unresponsive_seconds: 0.05, max_attempts: 2, retry_condition: ["unresponsive"] } }]);
    // drain anything older first
    let claim;
    do [claim] = await f.store.dequeueRollouts({ worker_id: "wd" });
    while (claim && claim.rollout_id !== r!.rollout_id);
    await new Promise((res) => setTimeout(res, 120));
    expect(await f.store.scanWatchdog()).toBeGreaterThanOrEqual(1);
    expect((await f.store.getRollout(r!.rollout_id))!.status).toBe("requeuing");
    expect((await f.store.getWorker("wd"))?.status).toBe("unknown");
    const [again] = await f.store.dequeueRollouts({ worker_id: "wd" });
    expect(again!.attempt.sequence_id).toBe(2);
    expect((await f.store.queryAttempts(r!.rollout_id)).items.map((a) => [a.status, a.reason])).toEqual([
      ["unresponsive", "first"],
      ["preparing", "retry_after_unresponsive"],
    ]);
  });

  it("waits for rollouts and reports statistics", async () => {
    const s = await f.store.startRollout({ input: "wait" });
    setTimeout(() => void f.store.updateAttempt(s.rollout_id, "latest", { status: "succeeded" }), 50);
    const done = await f.store.waitForRollouts([s.rollout_id, "ro-unknown"], 0.5);
    expect(done.map((r) => r.rollout_id)).toEqual([s.rollout_id]);
    const stats = await f.store.statistics();
    expect(stats.total_rollouts).toBeGreaterThan(5);
    expect(stats.total_spans).toBeGreaterThan(0);
  });

  it("prunes old finished rollouts with their spans but never held ones", async () => {
    const a = await f.store.startRollout({ input: "prune-a" });
    const b = await f.store.startRollout({ input: "prune-b" });
    for (const r of [a, b]) {
      await f.store.addSpan(makeSpan(r.rollout_id, r.attempt.attempt_id, 1, "x"));
      await f.store.updateAttempt(r.rollout_id, "latest", { status: "succeeded" });
    }
    await f.store.holdRollouts([b.rollout_id], "receipt:rc-test");
    await new Promise((res) => setTimeout(res, 20));
    const out = await f.store.pruneFinishedRollouts(0.001, { batchSize: 2 });
    expect(out.rollouts).toBeGreaterThanOrEqual(1);
    expect(await f.store.getRollout(a.rollout_id)).toBeNull();
    expect((await f.store.querySpans({ rollout_id: a.rollout_id })).total).toBe(0);
    expect(await f.store.getRollout(b.rollout_id)).not.toBeNull();
    expect((await f.store.querySpans({ rollout_id: b.rollout_id })).total).toBe(1);
  });

  it("deletes in transactions sized by spans: rollouts over the budget go alone, held ones stay whole", async () => {
    const spanCounts = [30, 5, 5, 5, 40, 5];
    const rollouts = [];
    for (const [i, n] of spanCounts.entries()) {
      const r = await f.store.startRollout({ input: `budget-${i}` });
      await f.store.addSpans(Array.from({ length: n }, (_, k) => makeSpan(r.rollout_id, r.attempt.attempt_id, k + 1, `s${k}`)));
      await f.store.updateAttempt(r.rollout_id, "latest", { status: "succeeded" });
      rollouts.push(r.rollout_id);
    }
    await f.store.holdRollouts([rollouts[4]!], "receipt:rc-budget");
    await new Promise((res) => setTimeout(res, 20));
    const candidates = await f.store.database.db.storeRollout.findMany({ where: { rolloutId: { in: rollouts } }, select: { rolloutId: true, spanSeq: true } });
    expect(Object.fromEntries(candidates.map((c) => [c.rolloutId, c.spanSeq]))).toEqual(Object.fromEntries(rollouts.map((id, i) => [id, spanCounts[i]])));
    const out = await f.store.pruneFinishedRollouts(0.001, { spanBudget: 12, keep: [] });
    expect(out.spans).toBeGreaterThanOrEqual(50);
    const left = await f.store.database.db.storeRollout.findMany({ where: { rolloutId: { in: rollouts } }, select: { rolloutId: true } });
    expect(left.map((r) => r.rolloutId)).toEqual([rollouts[4]]);
    expect((await f.store.querySpans({ rollout_id: rollouts[4]! })).total).toBe(40);
    if (dialect === "postgresql") {
      // The pass that deleted made the space reusable (autovacuum may be off, as on this machine).
      const [row] = await f.store.database.db.$queryRawUnsafe<{ last_vacuum: Date | null }[]>("SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = 'store_spans'");
      expect(row?.last_vacuum?.getTime()).toBeGreaterThan(Date.now() - 60_000);
    }
  });
});

describe("retention's budget and cadence", () => {
  it("fills a delete up to the span budget, always with at least one rollout", () => {
    const c = (n: number, i: number) => ({ rollout_id: `r${i}`, spans: n });
    expect(withinBudget([30, 5, 5].map(c), 12)).toEqual(["r0"]);
    expect(withinBudget([5, 5, 5, 40].map(c), 12)).toEqual(["r0", "r1"]);
    expect(withinBudget([5, 5, 2, 40].map(c), 12)).toEqual(["r0", "r1", "r2"]);
    expect(withinBudget([], 12)).toEqual([]);
  });

  it("runs every sixth of the retention age, between 5 seconds and an hour", () => {
    expect(retentionEveryMs(60)).toBe(10_000);
    expect(retentionEveryMs(6)).toBe(5_000);
    expect(retentionEveryMs(30 * 86_400)).toBe(3_600_000);
  });
});
