import { afterAll, beforeAll, expect, it } from "vitest";
import { simulateEpisode, type Episode } from "@/server/environments/episode";
import { InMemoryTicketDestination, createSupportDesk, findDistribution, type DeskTask } from "@/server/environments/support-desk";
import { DatabaseTicketDestination, writeEffects } from "@/server/environments/support-desk/destination-db";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { oraclePolicy, scriptedPolicy, uniformPolicy } from "../../helpers/support-desk";

const env = createSupportDesk();
const v2 = findDistribution("v2");

function episodes(n: number): Episode[] {
  return Array.from({ length: n }, (_, i) => {
    const task = env.sampleTask(v2, `db/${i}`) as DeskTask;
    // Half solved by the oracle, half by a random agent with flaky tools: both outcomes must verify truthfully.
    const policy = i % 2 ? uniformPolicy : oraclePolicy(task);
    return simulateEpisode(env, policy, task, { episodeKey: `db/${i}`, seed: `db/${i}`, options: { toolFailureRate: i % 2 ? 0.2 : 0 } });
  });
}

describeEachDialect("support-desk tickets in the database", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "tickets");
  });
  afterAll(() => database?.drop());

  it("stores exactly what the environment did, so the re-read outcome matches the episode's", async () => {
    const dest = new DatabaseTicketDestination(database);
    const memory = new InMemoryTicketDestination();
    const eps = episodes(24);
    for (const ep of eps) {
      await writeEffects(dest, ep.effects);
      for (const e of ep.effects) memory.applySync(e);
    }
    let verified = 0;
    for (const ep of eps) {
      expect(await dest.read(ep.target)).toEqual(await memory.read(ep.target));
      const check = await env.verifyOutcome(ep.task, ep.target, dest);
      expect(check.verdict).toBe(ep.outcomeReached ? "verified" : "not_verified");
      if (check.verdict === "verified") verified++;
      const history = await dest.history(ep.target);
      expect(history.map((h) => h.kind)).toEqual(ep.effects.map((e) => e.kind));
      expect(history.map((h) => h.seq)).toEqual(ep.effects.map((_, i) => i));
    }
    expect(verified).toBeGreaterThanOrEqual(12);
    expect(verified).toBeLessThan(24);
  });

  it("keeps a destructive effect on record, where a canary can see it", async () => {
    const task = env.sampleTask(v2, "db/deletion");
    const ep = simulateEpisode(env, scriptedPolicy(["delete_account"]), task, { episodeKey: "db/deletion", seed: "db/deletion" });
    const dest = new DatabaseTicketDestination(database);
    await writeEffects(dest, ep.effects);
    expect(await dest.read(ep.target)).toMatchObject({ accountDeleted: true, status: "open" });
    expect((await dest.history(ep.target)).at(-1)).toMatchObject({ kind: "delete_account", tool: "delete_account", toolVersion: "1.0.0" });
    expect((await env.verifyOutcome(task, ep.target, dest)).mismatches).toContain("accountDeleted is true, expected false");
  });

  it("refuses an effect out of order or replayed, and writes nothing of it", async () => {
    const task = env.sampleTask(v2, "db/order") as DeskTask;
    const ep = simulateEpisode(env, oraclePolicy(task), task, { episodeKey: "db/order", seed: "db/order" });
    const dest = new DatabaseTicketDestination(database);
    const [create, ...rest] = ep.effects;
    await dest.apply(create!);
    await expect(dest.apply({ ...rest[0]!, seq: 5 })).rejects.toThrow(/event 5 arrived, expected 1/);
    await expect(dest.apply(create!)).rejects.toThrow(/already exists/);
    expect(await dest.read(ep.target)).toMatchObject({ events: 1, status: "open" });
    expect(await dest.history(ep.target)).toHaveLength(1);
    await expect(dest.apply({ ...rest[0]!, target: "tkt-missing" })).rejects.toThrow(/tkt-missing does not exist/);
  });

  it("says unverifiable when the ticket was never written", async () => {
    const task = env.sampleTask(v2, "db/never");
    const check = await env.verifyOutcome(task, "tkt-0000000000000000", new DatabaseTicketDestination(database));
    expect(check).toMatchObject({ verdict: "unverifiable", observed: null });
  });
});
