// A person whose only role is held for one agent can do that role's job end to end: sign in, register the
// passkey a signature needs, open the candidate and sign its canary approval — for that agent only.
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { resolveActor } from "@/server/auth/actor";
import { publicOrigin } from "@/server/auth/origin";
import { readPointer } from "@/server/candidates/pointers";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { makePerson, signIn } from "../../helpers/auth";
import { AGENT } from "../../helpers/approvals";
import { callerFor } from "../../helpers/caller";
import { SoftAuthenticator } from "@/server/auth/soft-authenticator";

const OTHER_AGENT = "billing-bot";

describeEachDialect("people with per-agent roles only", (dialect) => {
  let database: TestDatabase;
  let candidateId: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "peragent");
    candidateId = (await seedReferenceDemo(database, { only: ["A"], withoutApproval: ["A"], now: new Date() }))[0]!.candidateId;
  }, 120_000);
  afterAll(() => database?.drop());

  /** Signs in through better-auth and returns a tRPC caller for the session's actor, as the dashboard has it. */
  async function signedIn(grants: Parameters<typeof makePerson>[1]) {
    const person = await makePerson(database, grants);
    const actor = await resolveActor(new Headers({ cookie: await signIn(database, person.email, person.password) }), database);
    return { person, actor: actor!, caller: callerFor(database, actor) };
  }

  it("a canary approver for one agent registers a passkey, reads the candidate and approves that agent's canary", async () => {
    const { caller } = await signedIn([{ role: "canary_approver", agent: AGENT }]);
    const me = await caller.auth.me();
    expect(me!.scopes).toEqual(expect.arrayContaining(["dashboard:read", "account:self"]));
    expect(me!.scopes).not.toContain("approval:canary"); // the role itself still counts for its agent only

    const key = new SoftAuthenticator(publicOrigin().origin);
    const registration = await caller.passkeys.beginRegistration();
    await caller.passkeys.finishRegistration({ nonce: registration.nonce, name: "Laptop", response: key.register(registration.options) });
    expect((await caller.passkeys.list()).passkeys).toHaveLength(1);

    expect((await caller.candidates.get({ id: candidateId })).summary).toMatchObject({ id: candidateId, agent: AGENT });
    const panel = await caller.approvals.panel({ candidateId });
    expect(panel.panel.availability).toMatchObject({ enabled: true });

    const begun = await caller.approvals.begin({ agent: AGENT, candidateId, step: "canary" });
    const done = await caller.approvals.finish({ agent: AGENT, payload: begun.payload, response: key.assert(begun.options!) });
    expect(done.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    expect(await readPointer(database.db, AGENT, "canary")).toMatchObject({ candidateId });
  }, 120_000);

  it("but not for another agent, nor a step the role does not hold", async () => {
    const own = await signedIn([{ role: "canary_approver", agent: AGENT }]);
    await expect(own.caller.approvals.begin({ agent: OTHER_AGENT, candidateId, step: "canary" })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/lacks the "approval:canary" scope for agent "billing-bot"/) });
    await expect(own.caller.approvals.begin({ agent: AGENT, candidateId, step: "default" })).rejects.toBeInstanceOf(TRPCError);
    await expect(own.caller.people.list()).rejects.toMatchObject({ code: "FORBIDDEN" });

    // an approver for the other agent cannot pass this candidate off as that agent's
    const other = await signedIn([{ role: "canary_approver", agent: OTHER_AGENT }]);
    expect((await other.caller.candidates.get({ id: candidateId })).summary).toMatchObject({ id: candidateId });
    await expect(other.caller.approvals.begin({ agent: AGENT, candidateId, step: "canary" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(other.caller.approvals.begin({ agent: OTHER_AGENT, candidateId, step: "canary" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/belongs to/) });
  }, 120_000);
});
