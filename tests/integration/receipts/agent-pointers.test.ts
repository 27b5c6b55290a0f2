// An agent's pointer history against the real database (SQLite, and PostgreSQL when it answers): the three
// pointers now, every move newest first with the candidates on either side, the signed decision committed with a
// move, the canary guard's abort (through the product's own abort) marked, and the lane filter.
import { afterAll, beforeAll, expect, it } from "vitest";
import { AUDIT_LOCK, type AuditActor } from "@/server/audit/audit-log";
import { recordDecision } from "@/server/candidates/decision-record";
import { movePointer, pointerLock, readPointer, type PointerKind } from "@/server/candidates/pointers";
import { newId } from "@/server/digest";
import { agentPointerHistory } from "@/server/receipts/agent-pointers";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { abortCanaryStage, CANARY_GUARD } from "@/server/receipts/gate-run/canary-stage";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { fixtureMove } from "../../helpers/approvals";

const AGENT = "history-agent";
const PARENT = { resourceId: "hist-policy", version: 1, digest: `sha256:${"1".repeat(64)}` };
const CANDIDATE = { resourceId: "hist-policy", version: 2, digest: `sha256:${"2".repeat(64)}` };
const ALGORITHM: AuditActor = { kind: "service", id: "key-algo", name: "trainer key", grants: [] };
const CARL: AuditActor = { kind: "user", id: "user-carl", name: "Carl Canary", grants: [] };
const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s));

describeEachDialect("agent pointer history", (dialect) => {
  let database: TestDatabase;
  const ids = { parent: "", candidate: "" };

  async function move(kind: PointerKind, to: typeof PARENT, candidateId: string, actor: AuditActor, reason: string, when: Date, signed?: { step: "canary" | "default"; from: string }) {
    await database.transaction(
      async (tx) => {
        const current = await readPointer(tx, AGENT, kind);
        await movePointer(tx, { agent: AGENT, kind, decision: fixtureMove(kind, current?.digest ?? null, to.digest), to: { resourcesId: to.resourceId, version: to.version, digest: to.digest, candidateId, receiptDigest: null }, actor, reason, at: when });
        // An approval commits its decision row with the move, at the same instant (server/approvals/approve.ts).
        if (signed) await recordDecision(tx, actor, when, { action: "approve", agent: AGENT, candidateId, step: signed.step, pointerKind: kind, fromDigest: signed.from, toDigest: to.digest, toResourcesId: to.resourceId });
      },
      { locks: [AUDIT_LOCK, pointerLock(AGENT)] },
    );
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "agent-pointers");
    for (const [key, ref] of [["parent", PARENT], ["candidate", CANDIDATE]] as const) {
      ids[key] = newId("cand");
      await database.db.candidate.create({
        data: { id: ids[key], agent: AGENT, resourcesId: ref.resourceId, version: ref.version, digest: ref.digest, parentResourcesId: PARENT.resourceId, parentVersion: 1, parentDigest: PARENT.digest, algorithm: "apo", stage1: "{}", createdById: ALGORITHM.id },
      });
    }
    await move("approved_default", PARENT, ids.parent, ALGORITHM, "initial default", at(1));
    await move("canary", PARENT, ids.parent, ALGORITHM, "initial canary", at(2));
    await move("latest_candidate", CANDIDATE, ids.candidate, ALGORITHM, "candidate registered", at(3));
    await move("canary", CANDIDATE, ids.candidate, CARL, "canary approval (signed) by Carl Canary", at(4), { step: "canary", from: PARENT.digest });
    // The guard's own abort: back to the exact parent, signed by the server.
    const aborted = await abortCanaryStage(database, { runId: "run-stage", candidateId: ids.candidate, agent: AGENT, candidate: CANDIDATE, parent: PARENT, reason: "span called wipe_customer outside the boundary", at: at(5) });
    expect(aborted.moved).toBe(true);
  });
  afterAll(() => database?.drop());

  it("names each pointer now and every move newest first, with candidate links, signed decisions and the guard's abort marked", async () => {
    const h = (await agentPointerHistory(database.db, AGENT))!;
    expect(h.pointers.map((p) => [p.kind, p.target?.label, p.target?.candidateId])).toEqual([
      ["latest_candidate", "hist-policy v2", ids.candidate],
      ["approved_default", "hist-policy v1", ids.parent],
      ["canary", "hist-policy v1", ids.parent],
    ]);
    expect(h.pointers.find((p) => p.kind === "canary")!.movedBy).toBe(CANARY_GUARD.name);
    expect(h.moves.map((m) => [m.pointer, m.from?.label ?? null, m.to.label])).toEqual([
      ["canary", "hist-policy v2", "hist-policy v1"],
      ["canary", "hist-policy v1", "hist-policy v2"],
      ["latest_candidate", null, "hist-policy v2"],
      ["canary", null, "hist-policy v1"],
      ["approved_default", null, "hist-policy v1"],
    ]);
    const [abort, approval, latest] = h.moves;
    expect(abort).toMatchObject({ guardAbort: true, by: CANARY_GUARD.name, decision: { action: "rollback", step: "canary" }, from: { candidateId: ids.candidate }, to: { candidateId: ids.parent } });
    expect(abort!.reason).toContain("wipe_customer");
    expect(approval).toMatchObject({ guardAbort: false, by: "Carl Canary", decision: { action: "approve", step: "canary" } });
    expect(latest).toMatchObject({ decision: null, guardAbort: false, by: ALGORITHM.id });
    expect(h.counts).toEqual({ latest_candidate: 1, approved_default: 1, canary: 3 });
  });

  it("a lane shows one pointer's moves only; the counts stay the agent's", async () => {
    const h = (await agentPointerHistory(database.db, AGENT, { pointer: "approved_default" }))!;
    expect(h.moves.map((m) => m.pointer)).toEqual(["approved_default"]);
    expect(h.counts.canary).toBe(3);
  });

  it("a lineage root reads 'lineage root' once: adopted with that very reason, or stored doubled before", async () => {
    const root = { resourceId: "root-policy", version: 1, digest: `sha256:${"9".repeat(64)}` };
    await adoptRootDefault(database, { agent: "root-agent", target: root, actor: ALGORITHM, reason: "lineage root", at: at(10) });
    await adoptRootDefault(database, { agent: "root-agent-2", target: root, actor: ALGORITHM, reason: "in production before Lightgate", at: at(10) });
    const reasonOf = async (agent: string) => (await agentPointerHistory(database.db, agent))!.moves.map((m) => m.reason);
    expect(await reasonOf("root-agent")).toEqual(["lineage root"]);
    expect(await reasonOf("root-agent-2")).toEqual(["lineage root: in production before Lightgate"]);
    // A root adopted before the fix keeps its doubled words in the append-only history; the page says them once.
    await database.transaction(
      (tx) => movePointer(tx, { agent: "old-root", kind: "approved_default", decision: fixtureMove("approved_default", null, root.digest), to: { resourcesId: root.resourceId, version: 1, digest: root.digest, candidateId: null, receiptDigest: null }, actor: ALGORITHM, reason: "lineage root: lineage root", at: at(11) }),
      { locks: [AUDIT_LOCK, pointerLock("old-root")] },
    );
    expect(await reasonOf("old-root")).toEqual(["lineage root"]);
  });

  it("an agent with no candidate and no pointer is unknown", async () => {
    expect(await agentPointerHistory(database.db, "no-such-agent")).toBeNull();
  });
});
