// Sessions → actors → scopes, first-run setup, and deactivation, through better-auth's real handler.
import { afterAll, beforeAll, expect, it } from "vitest";
import { resolveActor, actorCan } from "@/server/auth/actor";
import { CLIENT_ADDRESS_HEADER } from "@/server/auth/client-address";
import { createFirstAdmin, setupNeeded } from "@/server/auth/setup";
import { setUserDisabled } from "@/server/auth/users";
import { getAuth } from "@/server/auth/better-auth";
import { publicOrigin } from "@/server/auth/origin";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { authRequest, makePerson, signIn, SYSTEM, TEST_PASSWORD } from "../../helpers/auth";

describeEachDialect("people: setup, sessions, actors", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "sessions");
  });
  afterAll(() => database?.drop());

  it("a fresh instance needs setup; setup creates the first admin once and is then gone", async () => {
    expect(await setupNeeded(database.db)).toBe(true);
    await expect(createFirstAdmin(database, { name: "Ada", email: "ada@example.org", password: "short" })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "password" });
    expect(await database.db.user.count()).toBe(0);
    const admin = await createFirstAdmin(database, { name: "Ada", email: "Ada@Example.org", password: TEST_PASSWORD });
    expect(admin.email).toBe("ada@example.org");
    expect(await setupNeeded(database.db)).toBe(false);
    await expect(createFirstAdmin(database, { name: "Eve", email: "eve@example.org", password: TEST_PASSWORD })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await database.db.user.count()).toBe(1);
    const audit = await database.db.auditEvent.findMany({ where: { action: "setup.first_admin" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.targetId).toBe(admin.id);
  });

  it("two setups racing create exactly one admin", async () => {
    const fresh = await createTestDatabase(dialect, "setup-race");
    try {
      const results = await Promise.allSettled(
        ["one", "two", "three"].map((n) => createFirstAdmin(fresh, { name: n, email: `${n}@example.org`, password: TEST_PASSWORD })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await fresh.db.user.count()).toBe(1);
    } finally {
      await fresh.drop();
    }
  });

  it("a session cookie resolves to the person with their current roles and scopes", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }, { role: "release_approver", agent: "support-desk" }]);
    const cookie = await signIn(database, person.email, person.password);
    expect(cookie).toMatch(/lightgate\.session_token=/);
    const actor = await resolveActor(new Headers({ cookie }), database);
    expect(actor).toMatchObject({ kind: "user", id: person.id, email: person.email });
    expect(actor!.roles.sort()).toEqual(["release_approver", "viewer"]);
    expect(actorCan(actor!, "dashboard:read")).toBe(true);
    expect(actorCan(actor!, "approval:default")).toBe(false);
    expect(actorCan(actor!, "approval:default", "support-desk")).toBe(true);
    expect(actorCan(actor!, "approval:default", "billing-bot")).toBe(false);
    const signIns = await database.db.auditEvent.findMany({ where: { action: "auth.sign_in", actorId: person.id } });
    expect(signIns).toHaveLength(1);
    expect(JSON.parse(signIns[0]!.actorRoles)).toContainEqual({ role: "release_approver", agent: "support-desk" });
  });

  it("no cookie, a forged cookie or a wrong password give no actor", async () => {
    expect(await resolveActor(new Headers(), database)).toBeNull();
    expect(await resolveActor(new Headers({ cookie: "lightgate.session_token=forged.signature" }), database)).toBeNull();
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const res = await authRequest(database, "sign-in/email", { email: person.email, password: "not-the-password-at-all" });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().filter((c) => c.includes("session_token=") && !c.includes("Max-Age=0"))).toEqual([]);
  });

  it("better-auth's other writers are switched off (they would bypass the password rule and the audit log)", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const cookie = await signIn(database, person.email, person.password);
    for (const [path, body] of [
      ["update-user", { name: "Renamed" }],
      ["change-password", { currentPassword: person.password, newPassword: "x".repeat(12) }],
      ["change-email", { newEmail: "other@example.org" }],
    ] as const) {
      const res = await authRequest(database, path, body, { cookie });
      expect(res.status, path).toBe(404);
    }
    expect((await database.db.user.findUniqueOrThrow({ where: { id: person.id } })).name).toBe(person.name);
  });

  it("reading one's session is not counted against a rate limit: no row written per page view", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const cookie = await signIn(database, person.email, person.password);
    const rowsBefore = await database.db.authRateLimit.count();
    const ip = { [CLIENT_ADDRESS_HEADER]: `203.0.113.${dialect === "sqlite" ? 11 : 12}` };
    for (let i = 0; i < 5; i++) {
      const res = await (await getAuth(database)).handler(new Request(`${publicOrigin().origin}/api/auth/get-session`, { headers: { cookie, ...ip } }));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { user: { email: string } }).user.email).toBe(person.email);
    }
    expect(await database.db.authRateLimit.count()).toBe(rowsBefore);
    // Signing in is still counted, per address.
    await authRequest(database, "sign-in/email", { email: person.email, password: "wrong-password-here" }, ip);
    expect(await database.db.authRateLimit.count()).toBe(rowsBefore + 1);
  });

  it("password guessing from one address is cut off after 10 attempts a minute", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const ip = { [CLIENT_ADDRESS_HEADER]: `203.0.113.${dialect === "sqlite" ? 1 : 2}` };
    const statuses: number[] = [];
    // different (unknown) accounts, so only the per-address limit can refuse
    for (let i = 0; i < 12; i++) statuses.push((await authRequest(database, "sign-in/email", { email: `spray-${i}@example.org`, password: `wrong-guess-number-${i}` }, ip)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // the right password from the same address is refused too until the window passes; elsewhere it works
    expect((await authRequest(database, "sign-in/email", { email: person.email, password: person.password }, ip)).status).toBe(429);
    expect((await authRequest(database, "sign-in/email", { email: person.email, password: person.password })).status).toBe(200);
  });

  it("guessing one account's password from ever-changing addresses is cut off after 10 failures, and recorded", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const spoofed = { [CLIENT_ADDRESS_HEADER]: `192.0.2.${i + 10}` }; // many machines
      statuses.push((await authRequest(database, "sign-in/email", { email: person.email.toUpperCase(), password: `guess-number-${i}-xx` }, spoofed)).status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    const failures = await database.db.auditEvent.findMany({ where: { action: "auth.sign_in_failed", targetId: person.email } });
    expect(failures).toHaveLength(10);
    expect(JSON.parse(failures[0]!.after!)).toMatchObject({ userId: person.id });
    // guesses at unknown emails are written down the same way (same cost, so the time names no account)
    await authRequest(database, "sign-in/email", { email: "nobody@example.org", password: "whatever-guess-1" });
    const unknown = await database.db.auditEvent.findMany({ where: { action: "auth.sign_in_failed", targetId: "nobody@example.org" } });
    expect(unknown).toHaveLength(1);
    expect(JSON.parse(unknown[0]!.after!)).toMatchObject({ userId: null });
  });

  it("public sign-up is closed", async () => {
    const res = await authRequest(database, "sign-up/email", { email: "walk-in@example.org", password: TEST_PASSWORD, name: "Walk In" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await database.db.user.findUnique({ where: { email: "walk-in@example.org" } })).toBeNull();
  });

  it("deactivating a person ends their sessions and refuses new sign-ins", async () => {
    const person = await makePerson(database, [{ role: "trainer", agent: null }]);
    const cookie = await signIn(database, person.email, person.password);
    expect(await resolveActor(new Headers({ cookie }), database)).not.toBeNull();
    await setUserDisabled(database, SYSTEM, person.id, true);
    expect(await resolveActor(new Headers({ cookie }), database)).toBeNull();
    const res = await authRequest(database, "sign-in/email", { email: person.email, password: person.password });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("deactivated");
    await setUserDisabled(database, SYSTEM, person.id, false);
    expect(await resolveActor(new Headers({ cookie: await signIn(database, person.email, person.password) }), database)).not.toBeNull();
  });
});
