// The four-candidate reference through the store: evidence written as rollouts/attempts/spans, stage 2 built
// from the store's rollups, every verdict and failing check out of the gate — A's on a real signed decision (a
// person with the canary approver role, a registered passkey, the approval path the dashboard uses). Plus what the data layer
// guarantees: a sealed stage cannot be altered, and a registry bump (a new evaluator) makes check 4 stale.
import { afterAll, beforeAll, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { seedReferenceDemo, referenceReport, type SeededCandidate } from "@/server/reference/reference-demo";
import { gateReport } from "@/server/receipts/report";
import { loadChain, sealLink } from "@/server/receipts/links";
import { readPointer } from "@/server/candidates/pointers";
import { REFERENCE_NOW } from "@/server/gate/reference/four-candidates";
import { EVALUATOR } from "@/server/gate/reference/common";
import { REFERENCE_APPROVER } from "@/server/reference/reference-approver";
import { verifySignatureOffline, type SignatureRecord } from "@/server/auth/verify-offline";
import type { SignedPayload } from "@/server/auth/signing";
import { callerAs } from "../../helpers/caller";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const failing = (checks: Record<string, string>) => Object.entries(checks).filter(([, s]) => s === "fail").map(([id]) => Number(id));

describeEachDialect("the reference through the store", (dialect) => {
  let database: TestDatabase;
  let seeded: SeededCandidate[];
  const idOf = (name: string) => seeded.find((s) => s.name === name)!.candidateId;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "ref");
    seeded = await seedReferenceDemo(database);
  }, 120_000);
  afterAll(() => database?.drop());

  it("judges C, B, D and A from stored rollouts, attempts and spans", async () => {
    expect(await database.db.storeSpan.count()).toBeGreaterThan(4 * 120 * 4);
    const { candidates } = await referenceReport(database, seeded);
    const by = Object.fromEntries(candidates.map((c) => [c.name, c]));
    expect(failing(by.C!.checks)).toEqual([5]);
    expect(failing(by.B!.checks)).toEqual([2, 3]);
    expect(failing(by.D!.checks)).toEqual([1, 6, 7]);
    expect(Object.values(by.A!.checks).every((s) => s === "pass")).toBe(true);
    expect(by.A!.verdict).toBe("PROMOTE TO BOUNDED CANARY");
    // B and C cannot be approved (quarantined): their check 7 waits, it does not fail.
    expect([by.B!.checks["7"], by.C!.checks["7"]]).toEqual(["unavailable", "unavailable"]);
    for (const n of ["B", "C", "D"]) expect(by[n]!.verdict).toBe("QUARANTINED");
    expect(by.B!.evidence).toMatchObject({ succeededRollouts: 120, fullyCoveredRollouts: 83, unexpectedRetries: 14 });
    expect(by.C!.evidence.protectedRegressions).toBe(3);
    expect(by.D!.evidence).toMatchObject({ canaryVerified: 18, canaryTasks: 20, parentResolvable: false });
    expect(by.A!.scoreGain).toBeCloseTo(0.04, 6);
    const alice = await database.db.user.findUniqueOrThrow({ where: { email: REFERENCE_APPROVER.email } });
    expect(by.A!.evidence.approvedBy).toBe(alice.id);
  });

  it("A's approval is a signed decision by a real person with a registered passkey, and it moved the canary pointer", async () => {
    const alice = await database.db.user.findUniqueOrThrow({ where: { email: REFERENCE_APPROVER.email }, include: { roles: true, passkeys: true } });
    expect(alice.roles.map((r) => [r.role, r.agent])).toEqual([["canary_approver", "support-desk"]]);
    expect(alice.passkeys).toHaveLength(1);
    const row = await database.db.approvalDecision.findFirstOrThrow({ where: { candidateId: idOf("A"), action: "approve" } });
    const signature = JSON.parse(row.signature!) as SignatureRecord;
    expect(signature).toMatchObject({ kind: "webauthn", credentialId: alice.passkeys[0]!.credentialId, signer: { id: alice.id } });
    expect(await verifySignatureOffline(signature, JSON.parse(row.payload!) as SignedPayload)).toMatchObject({ ok: true });
    expect(await readPointer(database.db, "support-desk", "canary")).toMatchObject({ candidateId: idOf("A"), movedById: alice.id });
    for (const name of ["B", "C", "D"]) expect(await database.db.approvalDecision.count({ where: { candidateId: idOf(name) } })).toBe(0);
  });

  it("A without its recorded approval is READY FOR APPROVAL with check 7 open", async () => {
    const other = await createTestDatabase(dialect, "ref2");
    try {
      const [a] = await seedReferenceDemo(other, { only: ["A"], withoutApproval: ["A"] });
      const { report } = await gateReport(other, a!.candidateId, REFERENCE_NOW);
      expect(report!.verdict).toBe("READY FOR APPROVAL");
      expect(report!.checks.filter((c) => c.status !== "pass").map((c) => c.id)).toEqual([7]);
    } finally {
      await other.drop();
    }
  }, 120_000);

  it("refuses any UPDATE or DELETE of a sealed link or a published registry version, even in raw SQL", async () => {
    const id = idOf("A");
    const before = await loadChain(database.db, id);
    await expect(database.db.$executeRawUnsafe(`UPDATE receipt_links SET content = '{}' WHERE candidate_id = '${id}'`)).rejects.toThrow(/append-only/);
    await expect(database.db.$executeRawUnsafe(`DELETE FROM receipt_links WHERE candidate_id = '${id}'`)).rejects.toThrow(/append-only/);
    await expect(database.db.receiptLink.updateMany({ where: { candidateId: id }, data: { sealedAt: "2020-01-01T00:00:00.000Z" } })).rejects.toThrow(/append-only/);
    await expect(database.db.$executeRawUnsafe(`UPDATE registry_entries SET body = '{}'`)).rejects.toThrow(/append-only/);
    expect(await loadChain(database.db, id)).toEqual(before);
    // Sealing never rewrites: a new stage 2 (a re-run after late evidence) is appended after the sealed links.
    const b = idOf("B");
    const chainB = await loadChain(database.db, b);
    await sealLink(database, b, "stage2", (await gateReport(database, b)).receipt!.stage2!);
    const grown = await loadChain(database.db, b);
    expect(grown.slice(0, chainB.length)).toEqual(chainB);
    expect(grown.map((l) => l.kind).slice(chainB.length)).toEqual(["stage2"]);
    await expect(sealLink(database, b, "stage1", grown[0]!.content as never)).rejects.toThrow(/cannot follow/);
    expect((await gateReport(database, id, REFERENCE_NOW)).verification.ok).toBe(true);
    expect((await gateReport(database, b, REFERENCE_NOW)).verification.ok).toBe(true);
  });

  it("a consumer of the approved default gets the lineage root, never the latest candidate", async () => {
    const latest = await readPointer(database.db, "support-desk", "latest_candidate");
    const approved = await readPointer(database.db, "support-desk", "approved_default");
    expect(latest?.candidateId).toBe(idOf("A"));
    expect(approved?.digest).not.toBe(latest?.digest);
    expect(approved?.candidateId).toBeNull();
  });

  it("lists candidates with verdicts and failing checks through tRPC", async () => {
    const viewer = callerAs(database, "viewer");
    const page = await viewer.candidates.list({ agent: "support-desk" });
    expect(page.agents).toEqual(["support-desk"]);
    expect(page.candidates).toHaveLength(4);
    const detail = await viewer.candidates.get({ id: idOf("C") });
    expect(detail.summary.checks.find((c) => c.id === 5)?.status).toBe("fail");
    expect(detail.parent.isApprovedDefault).toBe(true);
    expect(detail.stage2?.rolloutCount).toBe(120);
  });

  it("names a stored rollout per locked-gate case and side, so C's regressed protected case opens both traces with the difference marked", async () => {
    const gate = (await gateReport(database, idOf("C"))).receipt!.stage3!.lockedGate!;
    const named = [...gate.parent.cases, ...gate.candidate.cases].map((c) => c.rolloutId);
    expect(named.every((id) => id !== undefined)).toBe(true);
    expect(await database.db.storeRollout.count({ where: { rolloutId: { in: named as string[] }, phase: "locked_gate", mode: "test" } })).toBe(120);
    const viewer = callerAs(database, "viewer");
    const regressed = (await viewer.candidates.get({ id: idOf("C") })).report!.evidence.comparison.rows.find((r) => r.protected && r.regressed)!;
    const traces = await viewer.candidates.caseTraces({ candidateId: idOf("C"), caseId: regressed.caseId });
    expect(traces.parent.rolloutId).toBe(gate.parent.cases.find((c) => c.caseId === regressed.caseId)!.rolloutId);
    expect(traces.traces.candidate.spans.map((s) => s.name)).toContain("execute_tool update_ticket");
    expect(traces.diff.differences).toEqual(
      expect.arrayContaining([
        { kind: "tool", tool: "escalate_to_human", parent: 1, candidate: 0 },
        { kind: "reward", parent: 1, candidate: 0 },
        expect.objectContaining({ kind: "output" }),
      ]),
    );
  });

  it("a new evaluator version, published by a policy owner, makes check 4 stale for existing receipts", async () => {
    const body = { evaluator: "support-desk", version: 4 };
    await expect(callerAs(database, "trainer").registries.publish({ kind: "evaluator", name: EVALUATOR.id, agent: "support-desk", version: "4", body })).rejects.toBeInstanceOf(TRPCError);
    const before = await gateReport(database, idOf("A"), REFERENCE_NOW);
    expect(before.report!.checks[3]!.status).toBe("pass");
    const published = await callerAs(database, "policy_owner").registries.publish({ kind: "evaluator", name: EVALUATOR.id, agent: "support-desk", version: "4", body });
    expect(published.seq).toBe(2);
    const after = await gateReport(database, idOf("A"), REFERENCE_NOW);
    const c4 = after.report!.checks[3]!;
    expect(c4.status).toBe("stale");
    expect(c4.stale?.reasons.map((r) => r.input)).toContain("evaluator");
    expect(after.report!.verdict).toBe("QUARANTINED");
    expect(after.report!.freshness.stale.map((s) => s.check)).toEqual(expect.arrayContaining([1, 4, 5]));
  });

  // Last: it removes the data layer's protection to show the verification (and its per-process cache) still
  // catches an edited stage.
  it("detects a sealed stage edited behind the triggers' back, even after the chain was verified once", async () => {
    const id = idOf("C");
    expect((await gateReport(database, id, REFERENCE_NOW)).verification.ok).toBe(true);
    const drop = dialect === "sqlite" ? "DROP TRIGGER receipt_links_no_update" : "DROP TRIGGER receipt_links_no_update_delete ON receipt_links";
    await database.db.$executeRawUnsafe(drop);
    await database.db.$executeRawUnsafe(`UPDATE receipt_links SET content = replace(content, '"passed":false', '"passed":true') WHERE candidate_id = '${id}' AND kind = 'stage3'`);
    const after = await gateReport(database, id, REFERENCE_NOW);
    expect(after.verification.ok).toBe(false);
    expect(after.report).toBeNull();
  });
}, { postgresql: "full-run" });
