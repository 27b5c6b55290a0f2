// The approved default moves only through a signed default-step approval on a fresh receipt, as the promotion
// machine decides inside the moving transaction: A (all seven pass, canary approved with a signed decision) is
// refused until its bounded canary's own stage is there — an approval link without a signed decision behind it
// does not count; then the move is recorded with the receipt head. After a rollback the candidate reads ROLLED
// BACK and no approval moves it again without a re-run; the pointer writer refuses a decision the pointer outran.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readPointer } from "@/server/candidates/pointers";
import { approvalTarget } from "@/server/gate/receipt/seal";
import { AGENT } from "@/server/gate/reference/common";
import { movePointer, pointerLock } from "@/server/candidates/pointers";
import { AUDIT_LOCK } from "@/server/audit/audit-log";
import { decideRollback } from "@/server/promotion/guards";
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

  const opts = { source: receiptSource };
  const approveDefault = async () => {
    const begun = await beginApproval(database, rita.actor, { agent: AGENT, candidateId: id, step: "default" }, opts);
    return finishApproval(database, rita.actor, { agent: AGENT, payload: begun.payload, response: rita.key.assert(begun.options!) }, opts);
  };

  it("refuses while the verdict is only PROMOTE TO BOUNDED CANARY, and moves nothing", async () => {
    const before = await readPointer(database.db, AGENT, "approved_default");
    await expect(approveDefault()).rejects.toThrow(/the verdict is about the canary step|not waiting for the default step/);
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
    expect((await readPointer(database.db, AGENT, "approved_default"))?.digest).toBe(before?.digest);
  });

  it("a signed default-step approval moves it, recording the receipt head; after a rollback nothing moves it back without a re-run", async () => {
    const done = await approveDefault();
    expect(done.verdict).toBe("PROMOTE TO DEFAULT");
    const { candidate, head } = await gateReport(database, id);
    expect(await readPointer(database.db, AGENT, "approved_default")).toMatchObject({ digest: candidate.digest, candidateId: id, receiptDigest: head });
    await expect(approveDefault()).rejects.toThrow(/The approved default names this candidate/);

    const rb = await beginRollback(database, rita.actor, { agent: AGENT, pointer: "approved_default", toDigest: candidate.parentDigest, reason: "rehearsing the way back" }, opts);
    await finishRollback(database, rita.actor, { agent: AGENT, payload: rb.payload, response: rita.key.assert(rb.options!) }, opts);
    expect((await readPointer(database.db, AGENT, "approved_default"))?.digest).toBe(candidate.parentDigest);
    await expect(approveDefault()).rejects.toThrow(/was rolled back from this candidate.*re-run the gate/);
    expect((await readPointer(database.db, AGENT, "approved_default"))?.digest).toBe(candidate.parentDigest);
  });

  it("the pointer writer refuses a decision the pointer has outrun, and writes nothing", async () => {
    const { candidate } = await gateReport(database, id);
    const current = (await readPointer(database.db, AGENT, "approved_default"))!;
    // Decided when the approved default still named the candidate; the rollback above has moved it since.
    const decision = decideRollback({ pointer: "approved_default", current: candidate.digest, arrivals: [candidate.parentDigest, candidate.digest], rolledBackFrom: [] }, candidate.parentDigest, { id: rita.actor.id, scopes: ["rollback:execute"] });
    expect(decision.allowed).toBe(true);
    const moves = await database.db.pointerMove.count({ where: { agent: AGENT } });
    const to = { resourcesId: current.resourcesId, version: current.version, digest: candidate.parentDigest, candidateId: null, receiptDigest: null };
    await expect(
      database.transaction((tx) => movePointer(tx, { agent: AGENT, kind: "approved_default", decision, to, actor: rita.actor, reason: "stale decision" }), { locks: [AUDIT_LOCK, pointerLock(AGENT)] }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("moved since the decision") });
    expect(await database.db.pointerMove.count({ where: { agent: AGENT } })).toBe(moves);
  });
});
