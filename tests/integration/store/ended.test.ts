// The store's in-process news of ended rollouts (server/store/ended.ts), which the gate orchestrator wakes on:
// an attempt or rollout leaving the running states is told, a running one is not, and unsubscribing stops it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDialect } from "../../helpers/db";
import { createTestStore, type StoreFixture } from "../../helpers/store";
import { onRolloutEnded } from "@/server/store/ended";

describeEachDialect("store: ended-rollout news", (dialect) => {
  let f: StoreFixture;
  beforeAll(async () => {
    f = await createTestStore(dialect, "ended");
  });
  afterAll(() => f?.drop());

  it("tells listeners of attempts and rollouts that ended, not of those still running", async () => {
    const heard: string[] = [];
    const stop = onRolloutEnded(f.store.database, (id) => heard.push(id));
    const [a, b] = await f.store.enqueueRollouts([{ input: "a" }, { input: "b" }]);
    const [claim] = await f.store.dequeueRollouts({ limit: 1, worker_id: "w" });
    await f.store.updateAttempt(claim!.rollout_id, claim!.attempt.attempt_id, { status: "running" });
    expect(heard).toEqual([]);
    await f.store.updateAttempt(claim!.rollout_id, claim!.attempt.attempt_id, { status: "succeeded" });
    expect(heard).toEqual([a!.rollout_id]);
    await f.store.updateRollout(b!.rollout_id, { status: "cancelled" });
    expect(heard).toEqual([a!.rollout_id, b!.rollout_id]);
    stop();
    const [c] = await f.store.enqueueRollouts([{ input: "c" }]);
    await f.store.updateRollout(c!.rollout_id, { status: "cancelled" });
    expect(heard).toHaveLength(2);
  });
});
