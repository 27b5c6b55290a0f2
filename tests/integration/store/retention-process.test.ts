// Retention as the server runs it: a real store server process (scripts/store/serve.ts) with
// LIGHTGATE_RETENTION_SECONDS=1 deletes, on its own timer, a finished rollout with its spans — and leaves
// alone one a receipt holds and one still running. On PostgreSQL the pass also reclaims the freed space.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createStore, type LightningStore } from "@/server/store";
import { describeEachDialect, createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startScript, waitFor, type ScriptProcess } from "../../helpers/script-process";
import { makeSpan } from "../../helpers/store";

describeEachDialect("retention in the server process", (dialect) => {
  let db: TestDatabase;
  let store: LightningStore;
  let server: ScriptProcess | undefined;

  beforeAll(async () => {
    db = await createTestDatabase(dialect, "retention-process");
    store = createStore(db, { scanDebounceMs: 0 });
  });
  afterAll(async () => {
    await server?.stop();
    await store?.close();
    await db?.drop();
  });

  it("deletes the old finished rollout and its spans on its timer; the held and the running ones stay whole", { timeout: 60_000 }, async () => {
    const ids: Record<"old" | "held" | "running", string> = { old: "", held: "", running: "" };
    for (const name of ["old", "held", "running"] as const) {
      const r = await store.startRollout({ input: `retention-${name}` });
      await store.addSpans(Array.from({ length: 20 }, (_, k) => makeSpan(r.rollout_id, r.attempt.attempt_id, k + 1, `s${k}`)));
      if (name !== "running") await store.updateAttempt(r.rollout_id, "latest", { status: "succeeded" });
      ids[name] = r.rollout_id;
    }
    await store.holdRollouts([ids.held], "receipt:rc-retention");
    const port = dialect === "sqlite" ? 3361 : 3362;
    server = startScript("scripts/store/serve.ts", ["--port", String(port)], { ...process.env, DATABASE_URL: db.url, LIGHTGATE_RETENTION_SECONDS: "1" });
    // A 1 s age is checked every 5 s (the shortest interval): the first pass comes within a few seconds.
    await waitFor(async () => server!.output().includes("store retention: deleted"), 30_000, () => server!.output());
    expect(server.output()).toMatch(/store retention: deleted 1 finished rollouts older than 1 s \(1 attempts, 20 spans\)/);
    expect(await store.getRollout(ids.old)).toBeNull();
    expect((await store.querySpans({ rollout_id: ids.old })).total).toBe(0);
    expect((await store.querySpans({ rollout_id: ids.held })).total).toBe(20);
    expect((await store.getRollout(ids.running))?.status).toBe("running");
    expect((await store.querySpans({ rollout_id: ids.running })).total).toBe(20);
    if (dialect === "postgresql") {
      const [row] = await db.db.$queryRawUnsafe<{ last_vacuum: Date | null }[]>("SELECT last_vacuum FROM pg_stat_user_tables WHERE relname = 'store_spans'");
      expect(row?.last_vacuum).not.toBeNull();
    }
  });
});
