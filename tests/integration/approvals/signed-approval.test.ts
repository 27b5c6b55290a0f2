// The signed approval on both dialects: a release approver signs candidate A's canary step with a passkey;
// the pointer, the sealed approval link, the decision row and the audit row commit together. Refused: self-
// approval, a replayed or altered signature, an expired payload, a release bot beyond its policy, and — the
// point of the product — evidence that went stale between page load and click (nothing moves; the audit
// log shows the refusal naming the stale check).
import { generateKeyPairSync, sign } from "node:crypto";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { setBotPolicy } from "@/server/approvals/bot-policy";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { verifyDecisionStatement } from "@/server/approvals/statement";
import { makeActor, type Actor } from "@/server/auth/actor";
import { registerBotKey } from "@/server/auth/bot-keys";
import { readPointer } from "@/server/candidates/pointers";
import { createApiKey } from "@/server/auth/api-keys";
import { signDecisionStatement } from "@/server/approvals/statement";
import type { DsseEnvelope } from "@/server/gate/export/dsse";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";
import { AGENT, personWithPasskey, REFERENCE_NOW, referenceWorld, pointersBackToParent, type ReferenceWorld } from "../../helpers/approvals";
import type { SoftAuthenticator } from "@/server/auth/soft-authenticator";

const now = REFERENCE_NOW;
const later = (s: number) => new Date(now.getTime() + s * 1000);


function decode(envelope: DsseEnvelope) {
  return JSON.parse(Buffer.from(envelope.payload, "base64").toString("utf8"));
}

describeEachDialect("signed approvals", (dialect) => {
  let database: TestDatabase;
  let world: ReferenceWorld;
  let rosa: { actor: Actor; key: SoftAuthenticator };

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "approvals");
    rosa = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Approver");
  });
  afterAll(() => database?.drop());
  beforeEach(async () => {
    world = referenceWorld();
    await pointersBackToParent(database);
  });

  async function approve(actor: Actor, key: SoftAuthenticator, candidateId: string, at = now) {
    const begun = await beginApproval(database, actor, { agent: AGENT, candidateId, step: "canary" }, { source: world.source, now: at });
    const response = key.assert(begun.options!);
    return { begun, response };
  }

  it("approves A's canary step: the signed payload names what was seen, and pointer, link, decision and audit commit together", async () => {
    const id = world.add("A");
    const { begun, response } = await approve(rosa.actor, rosa.key, id);
    expect(begun.data).toMatchObject({ step: "canary", decision: "approve", verdict: "READY FOR APPROVAL", receiptDigest: world.chain(id).at(-1)!.digest, pointer: { kind: "canary", from: null } });
    expect(begun.data.checks.find((c) => c.id === 4)?.versions).toMatchObject({ evaluator: world.versions().evaluator });
    const result = await finishApproval(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now: later(30) });
    expect(result.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    const pointer = await readPointer(database.db, AGENT, "canary");
    expect(pointer).toMatchObject({ candidateId: id, receiptDigest: result.linkDigest, movedById: rosa.actor.id });
    const chain = world.chain(id);
    expect(chain.at(-1)).toMatchObject({ kind: "approval", digest: result.linkDigest, content: { decision: "approve", actor: { id: rosa.actor.id } } });
    expect((await world.judge(database.db, id, later(60))).verdict).toBe("PROMOTE TO BOUNDED CANARY");
    const audit = await database.db.auditEvent.findMany({ where: { actorId: rosa.actor.id, action: { in: ["approval.canary.approve", "pointer.canary.move"] } } });
    expect(audit.map((a) => a.action).sort()).toEqual(["approval.canary.approve", "pointer.canary.move"]);
    const row = await database.db.approvalDecision.findUniqueOrThrow({ where: { id: result.decisionId } });
    expect(row).toMatchObject({ action: "approve", step: "canary", linkDigest: result.linkDigest, toDigest: pointer!.digest });

    // the DSSE statement verifies offline with the server's public key
    const key = await receiptSigningKey(database.db);
    const verified = await verifyDecisionStatement(JSON.parse(row.envelope!), [key.publicKey]);
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.ok).toBe(true);

    // a replayed signature is refused and moves nothing
    await expect(finishApproval(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now: later(40) })).rejects.toMatchObject({ code: "CONFLICT", field: "nonce" });
    expect(world.chain(id)).toHaveLength(chain.length);
  });

  it("the default step, after the canary stage: only a default approver signs it, and the approved default moves", async () => {
    const id = world.add("A");
    // Four eyes: the canary step by one person, the default step by another.
    const carl = await personWithPasskey(database, [{ role: "canary_approver", agent: null }], `Carl ${dialect}`);
    const first = await approve(carl.actor, carl.key, id);
    await finishApproval(database, carl.actor, { payload: first.begun.payload, response: first.response }, { source: world.source, now });
    world.sealCanaryStage(id, later(3600).toISOString());
    const at = later(3700);
    await expect(beginApproval(database, carl.actor, { agent: AGENT, candidateId: id, step: "default" }, { source: world.source, now: at })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/approval:default/) });
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now: at })).rejects.toMatchObject({ field: "step" });
    const begun = await beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "default" }, { source: world.source, now: at });
    expect(begun.data).toMatchObject({ step: "default", pointer: { kind: "approved_default" } });
    const done = await finishApproval(database, rosa.actor, { payload: begun.payload, response: rosa.key.assert(begun.options!) }, { source: world.source, now: at });
    expect(done.verdict).toBe("PROMOTE TO DEFAULT");
    expect(await readPointer(database.db, AGENT, "approved_default")).toMatchObject({ candidateId: id, receiptDigest: done.linkDigest });
    expect(await database.db.auditEvent.count({ where: { action: "approval.default.approve", targetId: id } })).toBe(1);
  });

  it("a tampered receipt fails offline verification, even re-signed by the server key", async () => {
    const id = world.add("A");
    const { begun, response } = await approve(rosa.actor, rosa.key, id);
    const { envelope } = await finishApproval(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now: later(10) });
    const key = await receiptSigningKey(database.db);
    // flip a byte of the envelope's payload: the server signature no longer verifies
    const raw = Buffer.from(envelope.payload, "base64");
    raw[raw.length - 5] = raw[raw.length - 5]! ^ 1;
    expect((await verifyDecisionStatement({ ...envelope, payload: raw.toString("base64") }, [key.publicKey])).ok).toBe(false);
    // edit a sealed stage (a better locked-gate score) and re-sign the statement: the chain check fails
    const statement = decode(envelope);
    statement.predicate.chain[2].content.computedAt = "2026-03-01T00:00:00.000Z";
    const forged = await verifyDecisionStatement(signDecisionStatement(statement, key.privateKey), [key.publicKey]);
    expect(forged.ok).toBe(false);
    expect(forged.checks.find((c) => c.name === "sealed chain")).toMatchObject({ ok: false, detail: expect.stringContaining("content was edited") });
    // change what the approver signed: the approver's signature fails
    const statement2 = decode(envelope);
    statement2.predicate.payload.data.comment = "I approve the default too";
    const resigned = await verifyDecisionStatement(signDecisionStatement(statement2, key.privateKey), [key.publicKey]);
    expect(resigned.checks.find((c) => c.name === "approver signature")).toMatchObject({ ok: false });
    // another server key is not trusted
    expect((await verifyDecisionStatement(envelope, [generateKeyPairSync("ed25519").publicKey])).ok).toBe(false);
  });

  it("stale at click: the evaluator changed after the page loaded → refused atomically, naming the stale check; the audit log shows it", async () => {
    const id = world.add("A");
    const before = await readPointer(database.db, AGENT, "canary");
    const { begun, response } = await approve(rosa.actor, rosa.key, id); // page load
    world.bumpEvaluator(); // a policy owner publishes evaluator v4
    const err = await finishApproval(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now: later(20) }).catch((e) => e);
    expect(err).toMatchObject({ code: "PRECONDITION_FAILED", field: "receipt" });
    expect(err.message).toMatch(/checks 1, 4 and 5 are stale \(evaluator changed/);
    expect(await readPointer(database.db, AGENT, "canary")).toEqual(before);
    expect(world.chain(id).at(-1)!.kind).toBe("stage3");
    const refusal = await database.db.auditEvent.findFirstOrThrow({ where: { action: "approval.canary.refused", targetId: id }, orderBy: { seq: "desc" } });
    expect(refusal.after).toMatch(/checks 1, 4 and 5 are stale/);
    expect(await database.db.approvalDecision.count({ where: { candidateId: id, action: "refused" } })).toBe(1);
    // the signature was spent with the refusal: it cannot be replayed once the gate is re-run
    await expect(finishApproval(database, rosa.actor, { payload: begun.payload, response }, { source: world.source, now: later(25) })).rejects.toMatchObject({ code: "CONFLICT" });
    // and at page load the button would now say why
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now: later(30) })).rejects.toThrow(/checks 1, 4 and 5 are stale/);
  });

  it("self-approval is refused: the receipt's author, the owner of the API key that registered the candidate, the starter of its training run", async () => {
    const own = world.add("A", { declaredBy: rosa.actor.id });
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: own, step: "canary" }, { source: world.source, now })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/separation of duties/),
    });
    const { key } = await createApiKey(database.db, { name: "rosa's trainer", role: "algorithm", createdBy: rosa.actor.id });
    const viaKey = world.add("A", { createdById: key.id });
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: viaKey, step: "canary" }, { source: world.source, now })).rejects.toMatchObject({ code: "FORBIDDEN" });
    // whoever started the training run that produced it
    const run = await database.db.trainingRun.create({
      data: {
        id: `run-${dialect}-sod`, agent: AGENT, family: "ppo", config: "{}", seed: "1", environment: "support-desk", distribution: "v1", parentResourcesId: "rs-p", parentVersion: 1,
        parentDigest: "sha256:" + "0".repeat(64), heldOutCases: 60, retryBudget: 0, codeRevision: "abcdef0", candidateEvery: 1, checkpointEvery: 1, status: "finished", updatesTotal: 1, startedById: rosa.actor.id,
      },
    });
    const viaRun = world.add("A", { trainingRunId: run.id });
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: viaRun, step: "canary" }, { source: world.source, now })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(world.chain(own).at(-1)!.kind).toBe("stage3");
    expect(world.chain(viaKey).at(-1)!.kind).toBe("stage3");
  });

  it("refuses an altered payload, an expired one, and a person without the role", async () => {
    const id = world.add("A");
    const { begun, response } = await approve(rosa.actor, rosa.key, id);
    const altered = { ...begun.payload, data: { ...begun.data, comment: "approved for default as well" } };
    await expect(finishApproval(database, rosa.actor, { payload: altered, response }, { source: world.source, now })).rejects.toMatchObject({ code: "BAD_REQUEST", field: "payload" });
    const expired = await approve(rosa.actor, rosa.key, id);
    await expect(finishApproval(database, rosa.actor, { payload: expired.begun.payload, response: expired.response }, { source: world.source, now: later(301) })).rejects.toMatchObject({ code: "PRECONDITION_FAILED", field: "nonce" });
    const trainer = await personWithPasskey(database, [{ role: "trainer", agent: null }], "Tom Trainer");
    await expect(beginApproval(database, trainer.actor, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/approval:canary/) });
    expect(world.chain(id).at(-1)!.kind).toBe("stage3");
  });

  it("a release bot approves within its policy and is refused beyond it", async () => {
    const bot = makeActor("service", `svc-release-bot-${dialect}`, "Release bot", ["release_bot"]);
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const keyId = (await registerBotKey(database, SYSTEM, { botId: bot.id, name: "ci", publicKey: publicKey.export({ format: "pem", type: "spki" }).toString() })).id;
    const canaryApprovers = { actorIds: [], roles: ["release_approver" as const, "release_bot" as const] };
    const signBot = (begun: Awaited<ReturnType<typeof beginApproval>>) => ({ keyId, signature: sign(null, Buffer.from(begun.signingInput!), privateKey).toString("base64url") });

    const id = world.add("A", { canaryApprovers });
    // no policy record: nothing
    await expect(beginApproval(database, bot, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/no release policy/) });
    // a policy whose canary boundary is smaller than the receipt's (20 tasks): beyond it
    const policy = { botId: bot.id, agents: [AGENT], verdicts: ["READY FOR APPROVAL" as const], steps: ["canary" as const], maxCanaryTasks: 10, maxCanaryWallSeconds: 7200, maxCanaryCostUsd: 10 };
    await setBotPolicy(database, SYSTEM, policy);
    await expect(beginApproval(database, bot, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/beyond its policy: canary boundary of 20 tasks exceeds its limit of 10/),
    });
    // widened to cover the boundary: the bot's Ed25519-signed approval commits
    await setBotPolicy(database, SYSTEM, { ...policy, maxCanaryTasks: 20 });
    const begun = await beginApproval(database, bot, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now });
    // narrowed again between begin and finish: refused at commit, recorded
    await setBotPolicy(database, SYSTEM, { ...policy, agents: ["another-agent"], maxCanaryTasks: 20 });
    await expect(finishApproval(database, bot, { payload: begun.payload, bot: signBot(begun) }, { source: world.source, now })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/does not cover agent/) });
    await setBotPolicy(database, SYSTEM, { ...policy, maxCanaryTasks: 20 });
    const again = await beginApproval(database, bot, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now });
    const done = await finishApproval(database, bot, { payload: again.payload, bot: signBot(again) }, { source: world.source, now });
    expect(done.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    const row = await database.db.approvalDecision.findUniqueOrThrow({ where: { id: done.decisionId } });
    expect((await verifyDecisionStatement(JSON.parse(row.envelope!), [(await receiptSigningKey(database.db)).publicKey])).ok).toBe(true);
  });
});
