// Reject/quarantine with a required comment, and rollback — signed, role-checked, allowed while stale,
// recorded in pointer history with its reason and in the audit log — on both dialects.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { beginRejection, finishRejection } from "@/server/approvals/reject";
import { beginRollback, finishRollback, rollbackOptions } from "@/server/approvals/rollback";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { verifyDecisionStatement } from "@/server/approvals/statement";
import type { Actor } from "@/server/auth/actor";
import { AUDIT_LOCK } from "@/server/audit/audit-log";
import { movePointer, pointerLock, readPointer } from "@/server/candidates/pointers";
import { resourceRef } from "@/server/gate/reference/common";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";
import { AGENT, PARENT, personWithPasskey, REFERENCE_NOW, referenceWorld, storeResourcesOf, pointersBackToParent, fixtureMove, type ReferenceWorld } from "../../helpers/approvals";
import type { SoftAuthenticator } from "@/server/auth/soft-authenticator";

const now = REFERENCE_NOW;
const OLDER_RESOURCES = { policy: { resource_type: "policy", weights: "older" } };
const older = resourceRef("older", OLDER_RESOURCES);


describeEachDialect("reject and rollback", (dialect) => {
  let database: TestDatabase;
  let world: ReferenceWorld;
  let rosa: { actor: Actor; key: SoftAuthenticator };
  let carl: { actor: Actor; key: SoftAuthenticator };

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "rollback");
    rosa = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Approver");
    carl = await personWithPasskey(database, [{ role: "canary_approver", agent: AGENT }], "Carl Canary");
    // A rollback target must load by version and digest: the store holds the exact parent and the earlier default.
    await storeResourcesOf(database);
    await storeResourcesOf(database, older, OLDER_RESOURCES);
  });
  afterAll(() => database?.drop());
  beforeEach(async () => {
    world = referenceWorld();
    await pointersBackToParent(database);
  });

  it("reject needs a comment and the scope; signed with the passkey, it seals a reject link (verdict QUARANTINED, check 7 fails) and audits it", async () => {
    const id = world.add("A");
    const opts = { source: world.source, now };
    await expect(beginRejection(database, carl.actor, { agent: AGENT, candidateId: id, comment: " " }, opts)).rejects.toMatchObject({ field: "comment" });
    const viewer = await personWithPasskey(database, [{ role: "viewer", agent: null }], "Vic Viewer");
    await expect(beginRejection(database, viewer.actor, { agent: AGENT, candidateId: id, comment: "no" + "pe" }, opts)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const begun = await beginRejection(database, carl.actor, { agent: AGENT, candidateId: id, comment: "Canary boundary too wide for refunds." }, opts);
    const done = await finishRejection(database, carl.actor, { payload: begun.payload, response: carl.key.assert(begun.options!) }, opts);
    const report = await world.judge(database.db, id, now);
    expect(report.verdict).toBe("QUARANTINED");
    expect(report.checks[6]).toMatchObject({ status: "fail", explanation: expect.stringContaining("Canary boundary too wide") });
    const audit = await database.db.auditEvent.findFirstOrThrow({ where: { action: "approval.canary.reject", targetId: id } });
    expect(audit.after).toContain(done.linkDigest);
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "canary" }, opts)).rejects.toThrow(/verdict is QUARANTINED|rejected/);
  });

  it("rolls the canary back to the tested exact parent while the evidence is stale, signed, with history and audit", async () => {
    const id = world.add("A");
    const begun = await beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now });
    await finishApproval(database, rosa.actor, { payload: begun.payload, response: rosa.key.assert(begun.options!) }, { source: world.source, now });
    world.bumpEvaluator(); // stale now: approving would be refused, rolling back must not be
    const options = await rollbackOptions(database.db, world.source, AGENT, "canary", rosa.actor);
    expect(options.targets.map((t) => t.ref.digest)).toEqual([PARENT.digest]);
    expect(options.targets[0]!.why).toMatch(/exact parent; rollback tested/);

    // without rollback:execute: refused
    await expect(beginRollback(database, carl.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "bad canary" }, { source: world.source, now })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(beginRollback(database, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "" }, { source: world.source, now })).rejects.toMatchObject({ field: "reason" });

    const rb = await beginRollback(database, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "refund tickets misrouted in canary" }, { source: world.source, now });
    const response = rosa.key.assert(rb.options!);
    const done = await finishRollback(database, rosa.actor, { payload: rb.payload, response }, { source: world.source, now });
    expect(await readPointer(database.db, AGENT, "canary")).toMatchObject({ digest: PARENT.digest, movedById: rosa.actor.id });
    const move = await database.db.pointerMove.findFirstOrThrow({ where: { agent: AGENT, kind: "canary", toDigest: PARENT.digest } });
    expect(move.reason).toMatch(/rollback \(signed\) by Rosa Approver: refund tickets misrouted/);
    expect(await database.db.auditEvent.count({ where: { action: "rollback.canary", actorId: rosa.actor.id } })).toBe(1);
    const row = await database.db.approvalDecision.findUniqueOrThrow({ where: { id: done.decisionId } });
    expect((await verifyDecisionStatement(JSON.parse(row.envelope!), [(await receiptSigningKey(database.db)).publicKey])).ok).toBe(true);
    // replay refused
    await expect(finishRollback(database, rosa.actor, { payload: rb.payload, response }, { source: world.source, now })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("rolls the approved default back to an earlier approved default (never to one that was not)", async () => {
    const agent = `${AGENT}-${dialect}`;
    const newer = resourceRef("newer", { v: 2 });
    const never = resourceRef("never", { v: 3 });
    // history: older (receipt r1) → newer (receipt r2), moved through the approval path in an earlier life
    await database.transaction(
      async (tx) => {
        for (const [ref, receipt] of [[older, "sha256:" + "1".repeat(64)], [newer, "sha256:" + "2".repeat(64)]] as const) {
          const current = await readPointer(tx, agent, "approved_default");
          await movePointer(tx, { agent, kind: "approved_default", decision: fixtureMove("approved_default", current?.digest ?? null, ref.digest), to: { resourcesId: ref.resourceId, version: ref.version, digest: ref.digest, candidateId: null, receiptDigest: receipt }, actor: SYSTEM, reason: "approved" });
        }
      },
      { locks: [AUDIT_LOCK, pointerLock(agent)] },
    );
    const options = await rollbackOptions(database.db, world.source, agent, "approved_default", rosa.actor);
    expect(options.targets.map((t) => t.ref.resourceId)).toEqual([older.resourceId]);
    await expect(beginRollback(database, rosa.actor, { agent, pointer: "approved_default", toDigest: never.digest, reason: "try" }, { source: world.source, now })).rejects.toMatchObject({ field: "toDigest" });
    const rb = await beginRollback(database, rosa.actor, { agent, pointer: "approved_default", toDigest: older.digest, reason: "newer default breaks refunds" }, { source: world.source, now });
    await finishRollback(database, rosa.actor, { payload: rb.payload, response: rosa.key.assert(rb.options!) }, { source: world.source, now });
    expect(await readPointer(database.db, agent, "approved_default")).toMatchObject({ digest: older.digest, receiptDigest: "sha256:" + "1".repeat(64) });
    expect(await database.db.pointerMove.count({ where: { agent, kind: "approved_default" } })).toBe(3);
  });
});
