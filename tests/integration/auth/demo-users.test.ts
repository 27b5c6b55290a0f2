// Demo people: one per human role, seeded idempotently, able to sign in, and setup is then gone.
import { afterAll, beforeAll, expect, it } from "vitest";
import { HUMAN_ROLES } from "@/lib/auth/scopes";
import { DEMO_PASSWORD, demoEmail } from "@/lib/auth/demo-accounts";
import { resolveActor } from "@/server/auth/actor";
import { demoSignInBanner, demoUsersEnabled, seedDemoUsers } from "@/server/auth/demo-users";
import { setupNeeded } from "@/server/auth/setup";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { signIn } from "../../helpers/auth";

describeEachDialect("demo people", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "demo");
  });
  afterAll(() => database?.drop());

  it("seeds one person per role, once, and each can sign in with exactly that role", async () => {
    const first = await seedDemoUsers(database);
    expect(first.map((a) => [a.role, a.created])).toEqual(HUMAN_ROLES.map((r) => [r, true]));
    const again = await seedDemoUsers(database);
    expect(again.every((a) => !a.created)).toBe(true);
    expect(await database.db.user.count()).toBe(HUMAN_ROLES.length);
    expect(await database.db.auditEvent.count({ where: { action: "user.create_demo" } })).toBe(HUMAN_ROLES.length);
    expect(await setupNeeded(database.db)).toBe(false);
    for (const role of ["viewer", "release_approver"] as const) {
      const actor = await resolveActor(new Headers({ cookie: await signIn(database, demoEmail(role), DEMO_PASSWORD) }), database);
      expect(actor?.grants).toEqual([{ role, agent: null }]);
    }
    const banner = demoSignInBanner(first, "http://localhost:3000");
    for (const role of HUMAN_ROLES) expect(banner).toContain(demoEmail(role));
    expect(banner).toContain(DEMO_PASSWORD);
  });

  it("is off unless demo mode is asked for", () => {
    expect(demoUsersEnabled({})).toBe(false);
    expect(demoUsersEnabled({ LIGHTGATE_DEMO: "1" })).toBe(true);
    expect(demoUsersEnabled({ LIGHTGATE_DEMO: "1", LIGHTGATE_DEMO_USERS: "0" })).toBe(false);
    expect(demoUsersEnabled({ LIGHTGATE_DEMO: "0", LIGHTGATE_DEMO_USERS: "true" })).toBe(true);
  });
});
