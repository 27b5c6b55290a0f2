// People management through tRPC (as an admin would use it), and per-agent role checks in scopedProcedure.
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeActor } from "@/server/auth/actor";
import { createCallerFactory, createTRPCRouter, scopedProcedure } from "@/server/trpc";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { callerAs, callerFor } from "../../helpers/caller";
import { makePerson, TEST_PASSWORD } from "../../helpers/auth";

describeEachDialect("people management", (dialect) => {
  let database: TestDatabase;
  let adminId: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "people");
    adminId = (await makePerson(database, [{ role: "admin", agent: null }], "Ada Quinn")).id;
  });
  afterAll(() => database?.drop());
  const admin = () => callerFor(database, makeActor("user", adminId, "Ada Quinn", ["admin"]));

  it("an admin creates a person with per-agent roles; the change and its audit row land together", async () => {
    const created = await admin().people.create({
      name: "Rosa Albers",
      email: "rosa@example.org",
      password: TEST_PASSWORD,
      grants: [{ role: "viewer", agent: null }, { role: "release_approver", agent: "support-desk" }],
    });
    const listed = (await admin().people.list()).find((p) => p.id === created.id)!;
    expect(listed.grants).toEqual(expect.arrayContaining([{ role: "viewer", agent: null }, { role: "release_approver", agent: "support-desk" }]));
    const audit = await database.db.auditEvent.findFirstOrThrow({ where: { action: "user.create", targetId: created.id } });
    expect(audit.actorId).toBe(adminId);
    expect(JSON.parse(audit.actorRoles)).toEqual([{ role: "admin", agent: null }]);
  });

  it("names the field at fault, and writes nothing, for bad input", async () => {
    const before = await database.db.user.count();
    const attempt = (input: Partial<Parameters<ReturnType<typeof admin>["people"]["create"]>[0]>) =>
      admin().people.create({ name: "X Y", email: "x@example.org", password: TEST_PASSWORD, grants: [{ role: "viewer", agent: null }], ...input });
    await expect(attempt({ password: "password1234" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("password") });
    await expect(attempt({ email: "not-an-email" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(attempt({ grants: [] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(attempt({ grants: [{ role: "runner" as never, agent: null }] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(attempt({ email: "rosa@example.org" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await database.db.user.count()).toBe(before);
  });

  it("grants and revokes roles with before/after in the audit log", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const after = await admin().people.grantRole({ userId: person.id, role: "canary_approver", agent: "billing-bot" });
    expect(after).toContainEqual({ role: "canary_approver", agent: "billing-bot" });
    await admin().people.grantRole({ userId: person.id, role: "canary_approver", agent: "billing-bot" }); // idempotent
    const revoked = await admin().people.revokeRole({ userId: person.id, role: "canary_approver", agent: "billing-bot" });
    expect(revoked).toEqual([{ role: "viewer", agent: null }]);
    const rows = await database.db.auditEvent.findMany({ where: { targetId: person.id, action: { in: ["role.grant", "role.revoke"] } }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => r.action)).toEqual(["role.grant", "role.revoke"]);
    expect(JSON.parse(rows[0]!.before!)).toEqual({ grants: [{ role: "viewer", agent: null }] });
    await expect(admin().people.grantRole({ userId: "usr-missing", role: "viewer", agent: null })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("never leaves the instance without an active admin", async () => {
    const fresh = await createTestDatabase(dialect, "lastadmin");
    try {
      const only = await makePerson(fresh, [{ role: "admin", agent: null }]);
      const other = await makePerson(fresh, [{ role: "viewer", agent: null }]);
      const caller = callerFor(fresh, makeActor("user", other.id, "Other", ["admin"]));
      await expect(caller.people.revokeRole({ userId: only.id, role: "admin", agent: null })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
      await expect(caller.people.setActive({ userId: only.id, active: false })).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
      await caller.people.grantRole({ userId: other.id, role: "admin", agent: null });
      await caller.people.revokeRole({ userId: only.id, role: "admin", agent: null });
    } finally {
      await fresh.drop();
    }
  });

  it("people without users:manage are refused", async () => {
    await expect(callerAs(database, "release_approver").people.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("agent-scoped procedures", () => {
  const router = createTRPCRouter({
    approve: scopedProcedure("approval:default", { agentInput: "agent" })
      .input(z.object({ agent: z.string() }))
      .mutation(({ input }) => `approved ${input.agent}`),
    global: scopedProcedure("approval:default").mutation(() => "ok"),
  });
  const caller = (grants: { role: "release_approver" | "viewer"; agent: string | null }[]) =>
    createCallerFactory(router)({ actor: makeActor("user", "u", "U", grants), db: null as never, database: null as never, headers: new Headers() });

  it("a role held for one agent allows that agent only", async () => {
    const perAgent = caller([{ role: "viewer", agent: null }, { role: "release_approver", agent: "support-desk" }]);
    await expect(perAgent.approve({ agent: "support-desk" })).resolves.toBe("approved support-desk");
    await expect(perAgent.approve({ agent: "billing-bot" })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining('for agent "billing-bot"') });
    await expect(perAgent.approve({} as never)).rejects.toBeInstanceOf(TRPCError);
    // an operation naming no agent needs the role for every agent
    await expect(perAgent.global()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("a role held for every agent allows any agent", async () => {
    const everywhere = caller([{ role: "release_approver", agent: null }]);
    await expect(everywhere.approve({ agent: "billing-bot" })).resolves.toBe("approved billing-bot");
    await expect(everywhere.global()).resolves.toBe("ok");
  });
});
