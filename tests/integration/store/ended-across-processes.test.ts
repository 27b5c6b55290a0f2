// On PostgreSQL a rollout that ends in one Lightgate process is heard at once by the others (LISTEN/NOTIFY,
// server/db/notify-channel.ts): a real store server process ends rollouts over HTTP; this process, listening
// as a gate orchestrator does (onRolloutEnded), hears each of them once, well inside the orchestrator's poll —
// and its own endings once each (its own NOTIFY is not delivered to it a second time).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { payloads } from "@/server/db/notify-channel";
import { onRolloutEnded } from "@/server/store/ended";
import { createStore, type LightningStore } from "@/server/store";
import { AglClient } from "../../helpers/agl-client";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { startScript, waitFor, type ScriptProcess } from "../../helpers/script-process";

const pg = inject("postgres");
const suite = pg.ok ? describe : describe.skip;
const PORT = 3362;

suite(`rollout endings across processes (PostgreSQL LISTEN/NOTIFY)${pg.ok ? "" : ` — skipped: ${pg.reason}`}`, () => {
  let db: TestDatabase;
  let store: LightningStore;
  let server: ScriptProcess;
  let client: AglClient;
  const heard: string[] = [];
  let unsubscribe = () => {};

  beforeAll(async () => {
    db = await createTestDatabase("postgresql", "endedx");
    store = createStore(db, { scanDebounceMs: 0 });
    const key = (await createApiKey(db.db, { name: "endedx", role: "algorithm" })).token;
    server = startScript("scripts/store/serve.ts", ["--port", String(PORT)], { ...process.env, DATABASE_URL: db.url, LIGHTGATE_ALLOW_ANONYMOUS_STORE: "0" });
    await waitFor(async () => server.output().includes("ready http"), 60_000, () => server.output());
    client = new AglClient(`http://127.0.0.1:${PORT}`, { Authorization: `Bearer ${key}` });
    unsubscribe = onRolloutEnded(db, (id) => heard.push(id));
    // Listening once the dedicated connection has run LISTEN.
    await waitFor(
      async () => (await db.db.$queryRawUnsafe<{ n: number }[]>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'"))[0]!.n > 0,
      10_000,
      () => "no LISTEN connection",
    );
  }, 90_000);
  afterAll(async () => {
    unsubscribe();
    await server?.stop();
    await store?.close();
    await db?.drop();
  });

  it("hears each rollout another process ends, within a fraction of a second, once", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [r] = (await client.enqueueMany([{ input: { i }, mode: "train" }])) as { rollout_id: string }[];
      const claim = await client.dequeue("W-endedx");
      expect(claim.rollout_id).toBe(r!.rollout_id);
      const t0 = Date.now();
      await client.updateAttempt(claim.rollout_id, claim.attempt.attempt_id, { status: i % 2 ? "failed" : "succeeded" });
      await waitFor(async () => heard.includes(claim.rollout_id), 2_000, () => `not heard: ${claim.rollout_id} (heard ${heard.join(", ")})`);
      expect(Date.now() - t0).toBeLessThan(2_000);
      ids.push(claim.rollout_id);
    }
    await new Promise((r) => setTimeout(r, 200));
    for (const id of ids) expect(heard.filter((h) => h === id)).toHaveLength(1);
  }, 60_000);

  it("an ending in this process is heard once, not again from its own NOTIFY", async () => {
    const r = await store.startRollout({ input: "local" });
    await store.updateAttempt(r.rollout_id, r.attempt.attempt_id, { status: "succeeded" });
    await new Promise((res) => setTimeout(res, 300));
    expect(heard.filter((h) => h === r.rollout_id)).toHaveLength(1);
  });

  it("splits long lists under NOTIFY's payload limit and leaves out ids that are not plain", () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => `ro-${String(i).padStart(12, "0")}`);
    const out = payloads("abc", [...ids, "odd,id", "pipe|id"]);
    expect(out.length).toBeGreaterThan(1);
    for (const p of out) expect(Buffer.byteLength(p)).toBeLessThan(8_000);
    expect(out.flatMap((p) => p.slice(4).split(","))).toEqual(ids);
  });
});
