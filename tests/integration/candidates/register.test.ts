// Registering a candidate moves only the latest-candidate pointer, records its history and audit row in the
// same transaction, and refuses what the gate would refuse as a parent.
import { afterAll, beforeAll, expect, it } from "vitest";
import { registerCandidate } from "@/server/candidates/register";
import { pointerAt, readPointer } from "@/server/candidates/pointers";
import { AGENT, PARENT, resourceRef, stage1For } from "@/server/gate/reference/common";
import { verifyAuditChain } from "@/server/audit/audit-log";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const actor = { kind: "service" as const, id: "svc-algorithm", name: "trainer bot", grants: [{ role: "algorithm" as const, agent: null }] };

describeEachDialect("registerCandidate", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "cand");
  });
  afterAll(() => database?.drop());

  it("moves latest_candidate, never approved_default, and keeps history", async () => {
    const first = resourceRef("cand-1", { policy: { w: 1 } });
    const c1 = await registerCandidate(database, { agent: AGENT, resource: { resourcesId: first.resourceId, version: first.version, digest: first.digest }, stage1: stage1For("one", first), actor });
    const second = resourceRef("cand-2", { policy: { w: 2 } });
    await registerCandidate(database, { agent: AGENT, resource: { resourcesId: second.resourceId, version: second.version, digest: second.digest }, stage1: stage1For("two", second), actor });

    const latest = await readPointer(database.db, AGENT, "latest_candidate");
    expect(latest?.digest).toBe(second.digest);
    expect(await readPointer(database.db, AGENT, "approved_default")).toBeNull();
    const moves = await database.db.pointerMove.findMany({ where: { agent: AGENT }, orderBy: { at: "asc" } });
    expect(moves.map((m) => [m.kind, m.fromDigest, m.toDigest])).toEqual([
      ["latest_candidate", null, first.digest],
      ["latest_candidate", first.digest, second.digest],
    ]);
    const at = await pointerAt(database.db, AGENT, "latest_candidate", moves[0]!.at);
    expect(at?.toDigest).toBe(first.digest);
    expect((await database.db.candidate.findUniqueOrThrow({ where: { id: c1.id } })).parentDigest).toBe(PARENT.digest);
    expect((await verifyAuditChain(database.db)).ok).toBe(true);
    expect(await database.db.auditEvent.count({ where: { action: "pointer.latest_candidate.move" } })).toBe(2);
  });

  it("refuses a moving parent name and a duplicate version, writing nothing", async () => {
    const r = resourceRef("cand-3", { policy: { w: 3 } });
    const bad = { ...stage1For("three", r), parent: { ...PARENT, resourceId: "latest" } };
    await expect(registerCandidate(database, { agent: AGENT, resource: { resourcesId: r.resourceId, version: r.version, digest: r.digest }, stage1: bad, actor })).rejects.toThrow(/moving name "latest"/);
    const before = await database.db.pointerMove.count();
    const dup = resourceRef("cand-1", { policy: { w: 1 } });
    await expect(registerCandidate(database, { agent: AGENT, resource: { resourcesId: dup.resourceId, version: dup.version, digest: dup.digest }, stage1: stage1For("dup", dup), actor })).rejects.toThrow(/already a candidate/);
    expect(await database.db.pointerMove.count()).toBe(before);
  });
});
