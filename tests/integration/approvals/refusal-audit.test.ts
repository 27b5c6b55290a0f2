// Every refused approval, rejection and rollback leaves an audit row (actor, action, target, reason) that
// survives the refusal — at begin and at finish, whatever the reason — and the pointer does not move. On
// both dialects; signatures are real (software passkey, Ed25519 bot key).
import { generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { setBotPolicy } from "@/server/approvals/bot-policy";
import { beginRejection, finishRejection } from "@/server/approvals/reject";
import { beginRollback, finishRollback } from "@/server/approvals/rollback";
import { makeActor, type Actor } from "@/server/auth/actor";
import { registerBotKey } from "@/server/auth/bot-keys";
import { verifyAuditChain } from "@/server/audit/audit-log";
import { readPointer } from "@/server/candidates/pointers";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";
import { callerFor } from "../../helpers/caller";
import { AGENT, PARENT, personWithPasskey, REFERENCE_NOW, referenceWorld, storeResourcesOf, pointersBackToParent, type ReferenceWorld } from "../../helpers/approvals";
import { SoftAuthenticator } from "@/server/auth/soft-authenticator";

const now = REFERENCE_NOW;
const later = (s: number) => new Date(now.getTime() + s * 1000);

describeEachDialect("refused decisions are audited", (dialect) => {
  let database: TestDatabase;
  let world: ReferenceWorld;
  let rosa: { actor: Actor; key: SoftAuthenticator };

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "refusals");
    await storeResourcesOf(database); // the rollback target loads, so what is refused is refused for its own reason
    rosa = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Approver");
  });
  afterAll(() => database?.drop());
  beforeEach(async () => {
    world = referenceWorld();
    await pointersBackToParent(database);
  });

  /** The pointers and their history as they are now: a refusal must leave both exactly so. */
  const pointers = async () => ({
    canary: await readPointer(database.db, AGENT, "canary"),
    approvedDefault: await readPointer(database.db, AGENT, "approved_default"),
    moves: await database.db.pointerMove.count(),
  });

  /** The refusal rows recorded for `actor` on `targetId`, with their `after` parsed. */
  async function refusals(actor: Actor, targetId: string) {
    const rows = await database.db.auditEvent.findMany({ where: { actorId: actor.id, targetId, action: { endsWith: ".refused" } }, orderBy: { seq: "asc" } });
    return rows.map((r) => ({ ...r, after: JSON.parse(r.after!) as Record<string, unknown> }));
  }

  /** Runs `attempt` (after noting the pointers and the refusals so far) and checks what it left behind. */
  async function expectRefusedAndAudited(attempt: () => Promise<unknown>, actor: Actor, target: { type: string; id: string }, want: { action: string; phase: string; code: string; reason: RegExp }) {
    const before = await pointers();
    const seen = (await refusals(actor, target.id)).length;
    await expect(attempt()).rejects.toMatchObject({ code: want.code, message: expect.stringMatching(want.reason) });
    expect(await pointers()).toEqual(before);
    const rows = await refusals(actor, target.id);
    expect(rows).toHaveLength(seen + 1); // one row: never none, never two
    expect(rows.at(-1)).toMatchObject({ actorId: actor.id, actorKind: actor.kind, actorName: actor.name, action: want.action, targetType: target.type, targetId: target.id });
    expect(rows.at(-1)!.after).toMatchObject({ phase: want.phase, code: want.code, reason: expect.stringMatching(want.reason) });
    return rows.at(-1)!;
  }

  const candidate = (id: string) => ({ type: "candidate", id });
  const begin = (actor: Actor, id: string, at = now) => beginApproval(database, actor, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now: at });

  it("forged passkey signatures: another challenge, or a key that is not the approver's", async () => {
    const id = world.add("A");
    const begun = await begin(rosa.actor, id);
    const otherChallenge = rosa.key.assert(begun.options!, { challenge: Buffer.alloc(32, 7).toString("base64url") });
    await expectRefusedAndAudited(() => finishApproval(database, rosa.actor, { payload: begun.payload, response: otherChallenge }, { source: world.source, now }), rosa.actor, candidate(id), {
      action: "approval.canary.refused",
      phase: "finish",
      code: "BAD_REQUEST",
      reason: /signed a different challenge/,
    });
    const stranger = new SoftAuthenticator(rosa.key.origin);
    const row = await expectRefusedAndAudited(() => finishApproval(database, rosa.actor, { payload: begun.payload, response: stranger.assert(begun.options!) }, { source: world.source, now }), rosa.actor, candidate(id), {
      action: "approval.canary.refused",
      phase: "finish",
      code: "FORBIDDEN",
      reason: /not one of your registered passkeys/,
    });
    expect(row.after.request).toMatchObject({ nonce: begun.payload.nonce, signedBy: "passkey", agent: AGENT });
    expect(world.chain(id).at(-1)!.kind).toBe("stage3");
  });

  it("replayed signatures: an approval's, and a rollback's", async () => {
    const id = world.add("A");
    const begun = await begin(rosa.actor, id);
    const response = rosa.key.assert(begun.options!);
    await finishApproval(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now });
    const replay = await expectRefusedAndAudited(() => finishApproval(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now: later(5) }), rosa.actor, candidate(id), {
      action: "approval.canary.refused",
      phase: "finish",
      code: "CONFLICT",
      reason: /already used — a replayed signature/,
    });
    expect(replay.after).toMatchObject({ field: "nonce", request: { nonce: begun.payload.nonce } });

    const rb = await beginRollback(database, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "canary misroutes refunds" }, { source: world.source, now });
    const answer = rosa.key.assert(rb.options!);
    await finishRollback(database, rosa.actor, { payload: rb.payload, response: answer }, { source: world.source, now });
    await expectRefusedAndAudited(() => finishRollback(database, rosa.actor, { payload: rb.payload, response: answer }, { source: world.source, now }), rosa.actor, { type: "pointer", id: `${AGENT}/canary` }, {
      action: "rollback.canary.refused",
      phase: "finish",
      code: "CONFLICT",
      reason: /replayed signature/,
    });
  });

  it("an expired payload", async () => {
    const id = world.add("A");
    const begun = await begin(rosa.actor, id);
    await expectRefusedAndAudited(() => finishApproval(database, rosa.actor, { payload: begun.payload, response: rosa.key.assert(begun.options!) }, { source: world.source, now: later(301) }), rosa.actor, candidate(id), {
      action: "approval.canary.refused",
      phase: "finish",
      code: "PRECONDITION_FAILED",
      reason: /nonce: expired/,
    });
  });

  it("self-approval at begin, and a rejection by someone separation of duties excludes", async () => {
    const own = world.add("A", { declaredBy: rosa.actor.id });
    await expectRefusedAndAudited(() => begin(rosa.actor, own), rosa.actor, candidate(own), { action: "approval.canary.refused", phase: "begin", code: "FORBIDDEN", reason: /separation of duties/ });
    await expectRefusedAndAudited(() => beginRejection(database, rosa.actor, { agent: AGENT, candidateId: own, comment: "my own, but bad" }, { source: world.source, now }), rosa.actor, candidate(own), {
      action: "approval.reject.refused",
      phase: "begin",
      code: "FORBIDDEN",
      reason: /separation of duties/,
    });
    expect(world.chain(own).at(-1)!.kind).toBe("stage3");
  });

  it("a rejection: unsigned, signed by a key that is not the rejecter's, and replayed — each refused and audited, nothing sealed", async () => {
    const id = world.add("A");
    const begun = await beginRejection(database, rosa.actor, { agent: AGENT, candidateId: id, comment: "refund limits unclear" }, { source: world.source, now });
    const reject = (input: Parameters<typeof finishRejection>[2]) => () => finishRejection(database, rosa.actor, input, { source: world.source, now });
    await expectRefusedAndAudited(reject({ payload: begun.payload }), rosa.actor, candidate(id), { action: "approval.reject.refused", phase: "finish", code: "BAD_REQUEST", reason: /passkey's answer is missing/ });
    const stranger = new SoftAuthenticator(rosa.key.origin);
    const forged = await expectRefusedAndAudited(reject({ payload: begun.payload, response: stranger.assert(begun.options!) }), rosa.actor, candidate(id), {
      action: "approval.reject.refused",
      phase: "finish",
      code: "FORBIDDEN",
      reason: /not one of your registered passkeys/,
    });
    expect(forged.after.request).toMatchObject({ nonce: begun.payload.nonce, signedBy: "passkey", comment: "refund limits unclear" });
    expect(world.chain(id).at(-1)!.kind).toBe("stage3");
    const response = rosa.key.assert(begun.options!);
    await finishRejection(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now });
    await expectRefusedAndAudited(reject({ payload: begun.payload, response }), rosa.actor, candidate(id), { action: "approval.reject.refused", phase: "finish", code: "CONFLICT", reason: /replayed signature/ });
    expect(world.chain(id).filter((l) => l.kind === "approval")).toHaveLength(1);
  });

  it("stale at commit: the refusal row and ONE audit row commit in the decision's transaction", async () => {
    const id = world.add("A");
    const begun = await begin(rosa.actor, id);
    world.bumpEvaluator();
    await expectRefusedAndAudited(() => finishApproval(database, rosa.actor, { payload: begun.payload, response: rosa.key.assert(begun.options!) }, { source: world.source, now: later(20) }), rosa.actor, candidate(id), {
      action: "approval.canary.refused",
      phase: "finish",
      code: "PRECONDITION_FAILED",
      reason: /checks 1, 4 and 5 are stale \(evaluator changed/,
    });
    expect(await database.db.approvalDecision.count({ where: { candidateId: id, action: "refused" } })).toBe(1);
  });

  it("a release bot beyond its policy: no policy and a boundary too wide at begin, narrowed policy at commit, a forged bot signature", async () => {
    const bot = makeActor("service", `svc-bot-${dialect}`, "Release bot", ["release_bot"]);
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const keyId = (await registerBotKey(database, SYSTEM, { botId: bot.id, name: "ci", publicKey: publicKey.export({ format: "pem", type: "spki" }).toString() })).id;
    const id = world.add("A", { canaryApprovers: { actorIds: [], roles: ["release_approver", "release_bot"] } });
    await expectRefusedAndAudited(() => begin(bot, id), bot, candidate(id), { action: "approval.canary.refused", phase: "begin", code: "FORBIDDEN", reason: /no release policy/ });
    const policy = { botId: bot.id, agents: [AGENT], verdicts: ["READY FOR APPROVAL" as const], steps: ["canary" as const], maxCanaryTasks: 10, maxCanaryWallSeconds: 7200, maxCanaryCostUsd: 10 };
    await setBotPolicy(database, SYSTEM, policy);
    await expectRefusedAndAudited(() => begin(bot, id), bot, candidate(id), { action: "approval.canary.refused", phase: "begin", code: "FORBIDDEN", reason: /beyond its policy: canary boundary of 20 tasks/ });

    await setBotPolicy(database, SYSTEM, { ...policy, maxCanaryTasks: 20 });
    const forged = await begin(bot, id);
    const otherKey = generateKeyPairSync("ed25519").privateKey;
    const forgedSig = { keyId, signature: sign(null, Buffer.from(forged.signingInput!), otherKey).toString("base64url") };
    const row = await expectRefusedAndAudited(() => finishApproval(database, bot, { payload: forged.payload, bot: forgedSig }, { source: world.source, now }), bot, candidate(id), {
      action: "approval.canary.refused",
      phase: "finish",
      code: "BAD_REQUEST",
      reason: /signature: does not verify/,
    });
    expect(row.after.request).toMatchObject({ signedBy: "ed25519" });

    const begun = await begin(bot, id);
    await setBotPolicy(database, SYSTEM, { ...policy, agents: ["another-agent"], maxCanaryTasks: 20 });
    const signed = { keyId, signature: sign(null, Buffer.from(begun.signingInput!), privateKey).toString("base64url") };
    await expectRefusedAndAudited(() => finishApproval(database, bot, { payload: begun.payload, bot: signed }, { source: world.source, now }), bot, candidate(id), {
      action: "approval.canary.refused",
      phase: "finish",
      code: "FORBIDDEN",
      reason: /does not cover agent/,
    });
  });

  it("a rollback whose pointer moved since it was prepared, and one by someone without rollback:execute", async () => {
    const id = world.add("A");
    const first = await begin(rosa.actor, id);
    await finishApproval(database, rosa.actor, { payload: first.payload, response: rosa.key.assert(first.options!) }, { source: world.source, now });
    const rb = await beginRollback(database, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "bad canary" }, { source: world.source, now });
    const other = await beginRollback(database, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "same, from another tab" }, { source: world.source, now });
    await finishRollback(database, rosa.actor, { payload: other.payload, response: rosa.key.assert(other.options!) }, { source: world.source, now });
    const target = { type: "pointer", id: `${AGENT}/canary` };
    await expectRefusedAndAudited(() => finishRollback(database, rosa.actor, { payload: rb.payload, response: rosa.key.assert(rb.options!) }, { source: world.source, now }), rosa.actor, target, {
      action: "rollback.canary.refused",
      phase: "finish",
      code: "CONFLICT",
      reason: /moved since the rollback was prepared/,
    });
    const carl = await personWithPasskey(database, [{ role: "canary_approver", agent: AGENT }], `Carl ${dialect}`);
    await expectRefusedAndAudited(() => beginRollback(database, carl.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "try" }, { source: world.source, now }), carl.actor, target, {
      action: "rollback.canary.refused",
      phase: "begin",
      code: "FORBIDDEN",
      reason: /rollback:execute/,
    });
  });

  it("through tRPC: a person whose role is for another agent is refused by the scope check, and that is recorded too", async () => {
    const id = world.add("A");
    const otherAgent = await personWithPasskey(database, [{ role: "release_approver", agent: "another-agent" }], `Olga ${dialect}`);
    await expectRefusedAndAudited(() => callerFor(database, otherAgent.actor).approvals.begin({ agent: AGENT, candidateId: id, step: "canary" }), otherAgent.actor, candidate(id), {
      action: "approval.canary.refused",
      phase: "begin",
      code: "FORBIDDEN",
      reason: /lacks the "approval:canary" scope for agent/,
    });
    // hostile raw input: still one bounded row, still refused
    const hostile = { agent: AGENT, candidateId: "x".repeat(5000), step: "__proto__", ["__proto__"]: { polluted: true } };
    await expect(callerFor(database, otherAgent.actor).approvals.beginReject(hostile as never)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const last = await database.db.auditEvent.findFirstOrThrow({ where: { actorId: otherAgent.actor.id }, orderBy: { seq: "desc" } });
    expect(last).toMatchObject({ action: "approval.reject.refused", targetType: "candidate" });
    expect(last.targetId.length).toBeLessThan(250);
  });

  it("a refusal whose audit write fails is still refused (never a success), and nothing moves", async () => {
    const own = world.add("A", { declaredBy: rosa.actor.id });
    const rowsBefore = await database.db.auditEvent.count();
    await refuseAuditInserts(true);
    try {
      const before = await pointers();
      await expect(begin(rosa.actor, own)).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/separation of duties/) });
      const fine = world.add("A");
      const begun = await begin(rosa.actor, fine);
      await expect(finishApproval(database, rosa.actor, { payload: begun.payload, response: rosa.key.assert(begun.options!, { challenge: "AAAA" }) }, { source: world.source, now })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      expect(await pointers()).toEqual(before);
      expect(await database.db.auditEvent.count()).toBe(rowsBefore);
    } finally {
      await refuseAuditInserts(false);
    }
    expect((await verifyAuditChain(database.db)).ok).toBe(true);
  });

  /** Makes every INSERT into the audit log fail (as a full disk or a broken connection would). */
  async function refuseAuditInserts(on: boolean) {
    if (dialect === "sqlite") {
      await database.db.$executeRawUnsafe(on ? `CREATE TRIGGER "test_audit_down" BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END` : `DROP TRIGGER "test_audit_down"`);
    } else if (on) {
      await database.db.$executeRawUnsafe(`CREATE FUNCTION test_audit_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log unavailable'; END; $$`);
      await database.db.$executeRawUnsafe(`CREATE TRIGGER "test_audit_down" BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION test_audit_down()`);
    } else {
      await database.db.$executeRawUnsafe(`DROP TRIGGER "test_audit_down" ON "AuditEvent"`);
      await database.db.$executeRawUnsafe(`DROP FUNCTION test_audit_down()`);
    }
  }
});
