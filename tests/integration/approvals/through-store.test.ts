// The approval path on the stored reference (sealed receipts, registries, pointers) on both dialects:
// page load → a policy owner publishes a new evaluator → the click is refused atomically (pointer unchanged,
// refusal audited); the gate is re-run → the signed approval commits (pointer, sealed approval link, audit)
// and its DSSE statement verifies offline; the evaluator changes again → rollback is still allowed.
import { getCandidate } from "@/server/receipts/candidates-view";
import { afterAll, beforeAll, expect, it } from "vitest";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { approvalPanel } from "@/server/approvals/panel";
import { beginRollback, finishRollback } from "@/server/approvals/rollback";
import { verifyDecisionStatement } from "@/server/approvals/statement";
import { readPointer } from "@/server/candidates/pointers";
import { EVALUATOR } from "@/server/gate/reference/common";
import { evaluatorFromKey } from "@/server/gate/versions";
import { loadReceipt, sealLink } from "@/server/receipts/links";
import { seedReferenceDemo, REFERENCE_POLICY_OWNER } from "@/server/reference/reference-demo";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { gateReport } from "@/server/receipts/report";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { currentVersions } from "@/server/receipts/versions";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { AGENT, PARENT, personWithPasskey } from "../../helpers/approvals";

describeEachDialect("approvals on stored receipts", (dialect) => {
  let database: TestDatabase;
  let candidateId: string;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "apprstore");
    candidateId = (await seedReferenceDemo(database, { only: ["A"], withoutApproval: ["A"], now: new Date() }))[0]!.candidateId;
  });
  afterAll(() => database?.drop());

  const bumpEvaluator = (version: string) => publishRegistryEntry(database, { kind: "evaluator", name: EVALUATOR.id, agent: AGENT, version, body: { evaluator: "support-desk", version: Number(version) }, actor: REFERENCE_POLICY_OWNER });

  it("stale at click is refused atomically; after a re-run the signed approval commits; rollback works while stale", async () => {
    const rosa = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Approver");
    const trainer = await personWithPasskey(database, [{ role: "trainer", agent: null }], "Tom Trainer");
    expect((await gateReport(database, candidateId)).report?.verdict).toBe("READY FOR APPROVAL");
    expect((await approvalPanel(database.db, receiptSource, trainer.actor, candidateId)).panel.availability).toMatchObject({ enabled: false, reason: expect.stringMatching(/approval:canary/) });

    // page load, then the evaluator changes, then the click
    const loaded = await beginApproval(database, rosa.actor, { agent: AGENT, candidateId, step: "canary" }, { source: receiptSource });
    await bumpEvaluator("4");
    const headBefore = (await loadReceipt(database, candidateId)).head;
    const err = await finishApproval(database, rosa.actor, { payload: loaded.payload, response: rosa.key.assert(loaded.options!) }, { source: receiptSource }).catch((e) => e);
    expect(err).toMatchObject({ code: "PRECONDITION_FAILED" });
    expect(err.message).toMatch(/checks 1, 4 and 5 are stale \(evaluator changed/);
    expect(await readPointer(database.db, AGENT, "canary")).toBeNull();
    expect((await loadReceipt(database, candidateId)).head).toBe(headBefore);
    expect(await database.db.auditEvent.count({ where: { action: "approval.canary.refused", targetId: candidateId } })).toBe(1);
    const panel = await approvalPanel(database.db, receiptSource, rosa.actor, candidateId);
    expect(panel.panel.availability).toMatchObject({ enabled: false, reason: expect.stringMatching(/checks 1, 4 and 5 are stale/) });
    expect(panel.panel.pendingStep).toBe("canary");

    // the gate is re-run against evaluator v4 (a new stage 3 whose locked gate v4 scored): fresh again, and the signed approval commits
    const stage3 = (await loadReceipt(database, candidateId)).receipt!.stage3!;
    const versions = await currentVersions(database.db, AGENT);
    const lockedGate = { ...stage3.lockedGate!, evaluator: evaluatorFromKey(versions.evaluator)! };
    await sealLink(database, candidateId, "stage3", { ...stage3, lockedGate, computedAt: new Date().toISOString(), versions });
    const begun = await beginApproval(database, rosa.actor, { agent: AGENT, candidateId, step: "canary" }, { source: receiptSource });
    const done = await finishApproval(database, rosa.actor, { payload: begun.payload, response: rosa.key.assert(begun.options!) }, { source: receiptSource });
    expect(done.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    expect((await gateReport(database, candidateId)).report?.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    expect(await readPointer(database.db, AGENT, "canary")).toMatchObject({ candidateId, receiptDigest: done.linkDigest });
    expect((await loadReceipt(database, candidateId)).head).toBe(done.linkDigest);
    const row = await database.db.approvalDecision.findUniqueOrThrow({ where: { id: done.decisionId } });
    const key = await receiptSigningKey(database.db);
    expect(await verifyDecisionStatement(JSON.parse(row.envelope!), [key.publicKey])).toMatchObject({ ok: true });

    // evaluator v5: stale again — rolling the canary back to the tested exact parent is still allowed
    await bumpEvaluator("5");
    // Stale quarantines on the canary step, but the canary step is approved: the card names the default step.
    const stale = (await approvalPanel(database.db, receiptSource, rosa.actor, candidateId)).panel;
    expect([stale.step, stale.pendingStep]).toEqual(["canary", "default"]);
    const rb = await beginRollback(database, rosa.actor, { agent: AGENT, pointer: "canary", toDigest: PARENT.digest, reason: "evaluator v5 disagrees" }, { source: receiptSource });
    await finishRollback(database, rosa.actor, { payload: rb.payload, response: rosa.key.assert(rb.options!) }, { source: receiptSource });
    expect(await readPointer(database.db, AGENT, "canary")).toMatchObject({ digest: PARENT.digest });
    expect(await readPointer(database.db, AGENT, "approved_default")).toMatchObject({ digest: PARENT.digest });
    const history = await database.db.pointerMove.findMany({ where: { agent: AGENT, kind: "canary" }, orderBy: { at: "asc" } });
    expect(history.map((h) => h.reason)).toEqual([expect.stringMatching(/approved the bounded canary step \(signed\)/), expect.stringMatching(/rollback \(signed\) by Rosa Approver: evaluator v5 disagrees/)]);
    expect(await database.db.auditEvent.count({ where: { action: "rollback.canary" } })).toBe(1);
    // The candidate page reads ROLLED BACK (the promotion state machine), never its former step.
    const page = await getCandidate(database, candidateId);
    expect(page.summary.status).toBe("ROLLED BACK");
    expect(page.promotion).toMatchObject({ state: "rolled-back", step: null });
  });
});
