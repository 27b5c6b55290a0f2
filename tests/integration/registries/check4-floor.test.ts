// Check 4's floor is policy, and a policy owner may raise it, never lower it below what bench/check4.ts shows
// holds α: publishing a promotion policy with fewer than 20 locked cases or a minimum gain under 0.02 is a 400
// naming the field, and writes nothing. A policy stored before the floor existed is applied with the floor.
import { afterAll, beforeAll, expect, it } from "vitest";
import { canonicalJson, digestOf } from "@/server/digest";
import { CHECK4_FLOOR, DEFAULT_GATE_POLICY } from "@/server/gate/policy";
import { currentPolicy } from "@/server/receipts/registries";
import { callerAs, refusal } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const AGENT = "floor-agent";
// A promotion policy as bodies were published before check 4 had a floor: no minLockedCases.
const { minLockedCases: _cases, minScoreGain: _gain, ...before } = DEFAULT_GATE_POLICY;

describeEachDialect("check 4's floor in the promotion policy", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "c4floor");
  }, 120_000);
  afterAll(() => database?.drop());

  it("refuses a minimum gain or a minimum number of cases below the floor, naming the field, and writes nothing", async () => {
    const owner = callerAs(database, "policy_owner");
    const rows = await database.db.registryEntry.count();
    const gain = await refusal(owner.registries.publish({ kind: "promotion_policy", name: AGENT, agent: AGENT, body: { ...before, minScoreGain: 0 } }));
    expect(gain.code).toBe("BAD_REQUEST");
    expect(gain.cause?.field).toBe("body.minScoreGain");
    expect(gain.message).toMatch(/at least 0\.02.*no true gain/);
    const cases = await refusal(owner.registries.publish({ kind: "promotion_policy", name: AGENT, agent: AGENT, body: { ...before, minScoreGain: 0.05, minLockedCases: 6 } }));
    expect(cases.code).toBe("BAD_REQUEST");
    expect(cases.cause?.field).toBe("body.minLockedCases");
    expect(cases.message).toMatch(/at least 20 locked cases/);
    expect(await database.db.registryEntry.count()).toBe(rows);
  });

  it("publishes a tighter floor, and fills the default floor into a body that names none", async () => {
    const owner = callerAs(database, "policy_owner");
    const tighter = await owner.registries.publish({ kind: "promotion_policy", name: AGENT, agent: AGENT, body: { ...before, minScoreGain: 0.05, minLockedCases: 40 } });
    expect(tighter.body).toMatchObject({ minScoreGain: 0.05, minLockedCases: 40 });
    expect(await currentPolicy(database.db, AGENT)).toMatchObject({ minScoreGain: 0.05, minLockedCases: 40 });
    const plain = await owner.registries.publish({ kind: "promotion_policy", name: AGENT, agent: AGENT, body: before });
    expect(plain.body).toMatchObject(CHECK4_FLOOR);
    expect(await currentPolicy(database.db, AGENT)).toMatchObject(CHECK4_FLOOR);
  });

  it("applies the floor to a policy stored before it existed (minimum gain 0, no minimum cases)", async () => {
    const legacy = { ...before, minScoreGain: 0 };
    await database.db.registryEntry.create({
      data: { kind: "promotion_policy", name: "legacy", agent: "legacy-agent", seq: 1, version: "1", digest: digestOf(legacy), body: canonicalJson(legacy), createdById: "usr-legacy", createdAt: new Date() },
    });
    expect(await currentPolicy(database.db, "legacy-agent")).toMatchObject(CHECK4_FLOOR);
  });
});
