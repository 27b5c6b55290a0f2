// The approved default moves only on a fresh PROMOTE TO DEFAULT judged inside the moving transaction: A (all
// seven pass, canary approved) is refused until its bounded canary's own stage and a default-step approval are
// sealed; then the move is recorded with the receipt head in the pointer history.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readPointer } from "@/server/candidates/pointers";
import { approvalTarget } from "@/server/gate/receipt/seal";
import { AGENT } from "@/server/gate/reference/common";
import { defaultMoveLocks, moveApprovedDefault } from "@/server/receipts/default-pointer";
import { loadChain, sealLink } from "@/server/receipts/links";
import { seedReferenceDemo } from "@/server/receipts/reference-demo";
import { gateReport } from "@/server/receipts/report";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const approver = { kind: "user" as const, id: "rita@example.com", name: "Rita", grants: [{ role: "release_approver" as const, agent: null }] };

describeEachDialect("moving the approved default", (dialect) => {
  let database: TestDatabase;
  let id: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "dflt");
    id = (await seedReferenceDemo(database, { only: ["A"], now: new Date() }))[0]!.candidateId;
  }, 120_000);
  afterAll(() => database?.drop());

  const move = () => database.transaction((tx) => moveApprovedDefault(tx, { candidateId: id, actor: approver }), { locks: defaultMoveLocks(AGENT, id) });

  it("refuses while the verdict is only PROMOTE TO BOUNDED CANARY, and moves nothing", async () => {
    const before = await readPointer(database.db, AGENT, "approved_default");
    await expect(move()).rejects.toThrow(/verdict is PROMOTE TO BOUNDED CANARY/);
    expect((await readPointer(database.db, AGENT, "approved_default"))?.digest).toBe(before?.digest);
  });

  it("moves once the canary stage passed and the default step is approved, recording the receipt head", async () => {
    const stage3 = (await gateReport(database, id)).receipt!.stage3!;
    await sealLink(database, id, "canary-stage", { canary: stage3.canary!, rollbackTest: stage3.rollbackTest, computedAt: new Date().toISOString(), versions: stage3.versions });
    const approves = approvalTarget(await loadChain(database.db, id), "default")!;
    const actorRef = { id: approver.id, kind: "user" as const, roles: ["release_approver" as const] };
    await sealLink(database, id, "approval", { step: "default", decision: "approve", actor: actorRef, approves, at: new Date().toISOString(), comment: "canary held" });
    expect((await gateReport(database, id)).report!.verdict).toBe("PROMOTE TO DEFAULT");
    await move();
    const pointer = await readPointer(database.db, AGENT, "approved_default");
    const { candidate, head } = await gateReport(database, id);
    expect(pointer).toMatchObject({ digest: candidate.digest, candidateId: id, receiptDigest: head });
    const last = await database.db.pointerMove.findFirst({ where: { agent: AGENT, kind: "approved_default" }, orderBy: { at: "desc" } });
    expect(last).toMatchObject({ toDigest: candidate.digest, actorId: approver.id, receiptDigest: head });
    await expect(move()).rejects.toThrow(/already is the approved default|judged against/);
  });
});
