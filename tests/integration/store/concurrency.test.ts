// 8 concurrent runners drain 600 rollouts (2,000 in the full run) over real HTTP with injected failures (both dialects):
// every rollout ends terminal, no attempt is handed out twice (nor a rollout to two runners at once), and
// attempt counts, statuses and reasons match the retry policy.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { AglClient, rolloutConfig } from "../../helpers/agl-client";
import { describeEachDialect, FULL_RUN } from "../../helpers/db";
import { makeSpan } from "../../helpers/store";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

// 600 keep 8 runners contending for the whole drain (every claim races 7 others); `npm run test:full` drains 2,000.
const ROLLOUTS = FULL_RUN ? 2_000 : 600;
const RUNNERS = 8;
const MAX_ATTEMPTS = 3;

/** Deterministic injected failure: about 35% of attempts fail. */
const fails = (rolloutId: string, seq: number) => createHash("sha1").update(`${rolloutId}#${seq}`).digest()[0]! < 90;

describeEachDialect(`8 runners drain ${ROLLOUTS} rollouts with injected failures`, (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "conc");
  });
  afterAll(() => s?.close());

  it("ends every rollout terminal with attempts matching the retry policy", { timeout: 240_000 }, async () => {
    const config = rolloutConfig({ max_attempts: MAX_ATTEMPTS, retry_condition: ["failed"] });
    const ids: string[] = [];
    for (let i = 0; i < ROLLOUTS; i += 100) {
      const batch = await s.client.enqueueMany(Array.from({ length: 100 }, (_, k) => ({ input: { i: i + k }, mode: "train", config })));
      ids.push(...batch.map((r: { rollout_id: string }) => r.rollout_id));
    }
    const handedOut = new Set<string>();
    const inFlight = new Set<string>();
    const violations: string[] = [];
    let finished = 0;

    async function runner(n: number) {
      const client = new AglClient(s.url, { Authorization: `Bearer ${s.keys.runner}` });
      const worker = `Worker-${n}`;
      let idle = 0;
      while (finished < ROLLOUTS) {
        const claim = await client.dequeue(worker);
        if (!claim) {
          if (++idle > 2_000) throw new Error(`${worker} starved with ${finished} finished`);
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        idle = 0;
        const key = `${claim.rollout_id}/${claim.attempt.attempt_id}`;
        if (handedOut.has(key)) violations.push(`attempt handed out twice: ${key}`);
        if (inFlight.has(claim.rollout_id)) violations.push(`rollout held by two runners: ${claim.rollout_id}`);
        handedOut.add(key);
        inFlight.add(claim.rollout_id);
        const seq = claim.attempt.sequence_id;
        await client.addSpan(makeSpan(claim.rollout_id, claim.attempt.attempt_id, seq, "work"));
        const failed = fails(claim.rollout_id, seq);
        inFlight.delete(claim.rollout_id);
        await client.updateAttempt(claim.rollout_id, claim.attempt.attempt_id, { status: failed ? "failed" : "succeeded" });
        if (!failed || seq >= MAX_ATTEMPTS) finished++;
      }
    }
    await Promise.all(Array.from({ length: RUNNERS }, (_, n) => runner(n)));
    expect(violations).toEqual([]);

    const page = await s.store.queryRollouts({ rollout_id_in: ids, limit: -1 });
    expect(page.total).toBe(ROLLOUTS);
    let totalAttempts = 0;
    for (const r of page.items) {
      expect(["succeeded", "failed"]).toContain(r.status);
      const attempts = (await s.store.queryAttempts(r.rollout_id)).items;
      totalAttempts += attempts.length;
      // Expected: attempts fail until the first success, at most MAX_ATTEMPTS of them.
      let expected = 1;
      while (expected < MAX_ATTEMPTS && fails(r.rollout_id, expected)) expected++;
      expect(attempts.map((a) => a.sequence_id)).toEqual(Array.from({ length: expected }, (_, k) => k + 1));
      expect(attempts.map((a) => a.reason)).toEqual(["first", ...Array(expected - 1).fill("retry_after_failed")]);
      const last = attempts[attempts.length - 1]!;
      expect(r.status).toBe(fails(r.rollout_id, expected) ? "failed" : "succeeded");
      expect(last.status).toBe(r.status);
      expect(attempts.slice(0, -1).every((a) => a.status === "failed")).toBe(true);
    }
    expect(handedOut.size).toBe(totalAttempts);
    const stats = await s.store.statistics();
    expect(stats.total_spans).toBe(totalAttempts);
  });
});

describeEachDialect("concurrent first writes of one new resources id", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "res-race");
  });
  afterAll(() => s?.close());

  // A read-then-insert upsert let two first writes both insert, and one answered 500 on the primary key.
  it("every write gets its own version, 1 … n, and none answers 5xx", async () => {
    const n = 12;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        fetch(`${s.url}/v1/agl/resources/rs-race`, { method: "POST", headers: { Authorization: `Bearer ${s.keys.algorithm}`, "content-type": "application/json" }, body: JSON.stringify({ p: { resource_type: "prompt_template", template: `t${i}`, engine: "f-string" } }) }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
    const versions = (await Promise.all(answers.map((a) => a.json() as Promise<{ version: number }>))).map((b) => b.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });
});
