// The approved default moves only on a fresh PROMOTE TO DEFAULT judged inside the moving transaction: A (all
// seven pass, canary approved with a signed decision) is refused until its bounded canary's own stage and a
// signed default-step approval are there — an approval link without a signed decision behind it does not count;
// then the move is recorded with the receipt head in the pointer history.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readPointer } from "@/server/candidates/pointers";
import { approvalTarget } from "@/server/gate/receipt/seal";
import { AGENT } from "@/server/gate/reference/common";
import { defaultMoveLocks, moveApprovedDefault } from "@/server/receipts/default-pointer";
import { loadChain, sealLink } from "@/server/receipts/links";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { gateReport } from "@/server/receipts/report";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { receiptSource } from "@/server/approvals/db-source";
import { beginRollback, finishRollback } from "@/server/approvals/rollback";
import type { Actor } from "@/server/auth/actor";
import type { SoftAuthenticator } from "@/server/auth/soft-authenticator";
import { personWithPasskey } from "../../helpers/approvals";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const approver = { kind: "user" as const, id: "rita@example.com", name: "Rita", grants: [{ role: "release_approver" as const, agent: null }] };

describeEachDialect("moving the approved default", (dialect) => {
  let database: TestDatabase;
  let id: string;
  let rita: { actor: Actor; key: SoftAuthenticator };
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "dflt");
    id = (await seedReferenceDemo(database, { only: ["A"], now: new Date() }))[0]!.candidateId;
    rita = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rita Release");
  }, 120_000);
  afterAll(() => database?.drop());

  const move = () => database.transaction((tx) => moveApprovedDefault(tx, { candidateId: id, actor: approver }), { locks: defaultMoveLocks(AGENT, id) });

  it("refuses while the verdict is only PROMOTE TO BOUNDED CANARY, and moves nothing", async () => {
    const before = await readPointer(database.db, AGENT, "approved_default");
    await expect(move()).rejects.toThrow(/verdict is PROMOTE TO BOUNDED CANARY/);
    expect((await readPointer(database.db, AGENT, "approved_default"))?.digest).toBe(before?.digest);
  });

  it("an unsigned default-step approval link does not count: nothing moves", async () => {
    const stage3 = (await gateReport(database, id)).receipt!.stage3!;
    await sealLink(database, id, "canary-stage", { canary: stage3.canary!, rollbackTest: stage3.rollbackTest, computedAt: new Date().toISOString(), versions: stage3.versions });
    const approves = approvalTarget(await loadChain(database.db, id), "default")!;
    const actorRef = { id: rita.actor.id, kind: "user" as const, roles: ["release_approver" as const] };
    await sealLink(database, id, "approval", { step: "default", decision: "approve", actor: actorRef, approves, at: new Date().toISOString(), comment: "canary held" });
    expect((await gateReport(database, id)).report!.verdict).toBe("READY FOR APPROVAL");
    const before = await readPointer(database.db, AGENT, "approved_default");
    await expect(move()).rejects.toThrow(/verdict is READY FOR APPROVAL/);
    expect((await readPointer(database.db, AGENT, "approved_default"))?.digest).toBe(before?.digest);
  });

  it("a signed default-step approval by another person moves it, recording the receipt head; after a rollback, moveApprovedDefault moves it again", async () => {
    const opts = { source: receiptSource };
    const begun = await beginApproval(database, rita.actor, { agent: AGENT, candidateId: id, step: "default" }, opts);
    const done = await finishApproval(database, rita.actor, { agent: AGENT, payload: begun.payload, response: rita.key.assert(begun.options!) }, opts);
    expect(done.verdict).toBe("PROMOTE TO DEFAULT");
    const { candidate, head } = await gateReport(database, id);
    expect(await readPointer(database.db, AGENT, "approved_default")).toMatchObject({ digest: candidate.digest, candidateId: id, receiptDigest: head });
    await expect(move()).rejects.toThrow(/already is the approved default/);

    const rb = await beginRollback(database, rita.actor, { agent: AGENT, pointer: "approved_default", toDigest: candidate.parentDigest, reason: "rehearsing the way back" }, opts);
    await finishRollback(database, rita.actor, { agent: AGENT, payload: rb.payload, response: rita.key.assert(rb.options!) }, opts);
    expect((await readPointer(database.db, AGENT, "approved_default"))?.digest).toBe(candidate.parentDigest);
    await move();
    expect(await readPointer(database.db, AGENT, "approved_default")).toMatchObject({ digest: candidate.digest, candidateId: id, receiptDigest: head });
    const last = await database.db.pointerMove.findFirst({ where: { agent: AGENT, kind: "approved_default" }, orderBy: { at: "desc" } });
    expect(last).toMatchObject({ toDigest: candidate.digest, actorId: approver.id, receiptDigest: head });
  });
});
