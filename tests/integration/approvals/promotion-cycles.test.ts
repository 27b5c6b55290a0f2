// The promotion state machine through the approvals' own entry points, on both dialects (issue 24, defect 4):
// a no-op canary move X → X is refused; separation of duties is judged within the current cycle (one release
// approver is not deadlocked by her signature of a previous cycle, but four eyes still hold inside a cycle);
// after a rollback the candidate reads ROLLED BACK and no rollback target rolls forward; STALE says what the
// stale checks said before they went stale.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { approvalPanel } from "@/server/approvals/panel";
import { beginApproval, finishApproval } from "@/server/approvals/approve";
import { beginRollback, finishRollback, rollbackOptions } from "@/server/approvals/rollback";
import type { Actor } from "@/server/auth/actor";
import { readPointer } from "@/server/candidates/pointers";
import type { SoftAuthenticator } from "@/server/auth/soft-authenticator";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { AGENT, PARENT, personWithPasskey, pointersBackToParent, storeResourcesOf, REFERENCE_NOW, referenceWorld, type ReferenceWorld } from "../../helpers/approvals";

const now = REFERENCE_NOW;
const later = (s: number) => new Date(now.getTime() + s * 1000);
type Person = { actor: Actor; key: SoftAuthenticator };

describeEachDialect("promotion cycles", (dialect) => {
  let database: TestDatabase;
  let world: ReferenceWorld;
  let rosa: Person;
  let carl: Person;

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "promotion");
    rosa = await personWithPasskey(database, [{ role: "release_approver", agent: null }], "Rosa Release");
    carl = await personWithPasskey(database, [{ role: "canary_approver", agent: AGENT }], "Carl Canary");
    await storeResourcesOf(database); // the exact parent loads: a rollback to it is refused only for the machine's reasons
  });
  afterAll(() => database?.drop());
  beforeEach(async () => {
    world = referenceWorld();
    await pointersBackToParent(database);
  });

  async function approve(who: Person, candidateId: string, step: "canary" | "default", at: Date) {
    const opts = { source: world.source, now: at };
    const begun = await beginApproval(database, who.actor, { agent: AGENT, candidateId, step }, opts);
    return finishApproval(database, who.actor, { payload: begun.payload, response: who.key.assert(begun.options!) }, opts);
  }

  it("a canary approval that would move the canary X → X is refused, and the refusal is audited", async () => {
    const id = world.add("A");
    await approve(rosa, id, "canary", now);
    world.sealCanaryStage(id, later(600).toISOString());
    world.grantPermission("refunds:issue"); // the canary evidence goes stale: the re-run decides the canary step again
    world.rerun(id, later(700).toISOString());
    const panel = (await approvalPanel(database.db, world.source, rosa.actor, id, later(800))).panel;
    expect(panel.step).toBe("canary");
    expect(panel.availability).toMatchObject({ enabled: false, reason: expect.stringContaining("the canary already names this candidate") });
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "canary" }, { source: world.source, now: later(800) })).rejects.toMatchObject({
      message: expect.stringContaining("the canary already names this candidate"),
    });
    const refused = await database.db.auditEvent.findMany({ where: { actorId: rosa.actor.id, action: "approval.canary.refused", targetId: id } });
    expect(refused.map((r) => r.after)).toEqual([expect.stringContaining("the canary already names this candidate")]);
  });

  it("four eyes within a cycle; after a re-run with fresh canary evidence the same release approver may sign the default step", async () => {
    const id = world.add("A");
    const before = (await approvalPanel(database.db, world.source, rosa.actor, id, now)).panel;
    await approve(rosa, id, "canary", now);
    world.sealCanaryStage(id, later(600).toISOString());
    // Same cycle: she approved the canary step, another person must approve the default step.
    await expect(beginApproval(database, rosa.actor, { agent: AGENT, candidateId: id, step: "default" }, { source: world.source, now: later(650) })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("another person must approve the default step"),
    });
    // A re-run starts a new cycle; the sealed canary stage is still fresh, so the candidate stays at the default step.
    world.rerun(id, later(700).toISOString());
    const panel = (await approvalPanel(database.db, world.source, rosa.actor, id, later(800))).panel;
    expect(panel).toMatchObject({ step: "default", pendingStep: "default", status: "READY FOR APPROVAL" });
    expect(panel.availability).toMatchObject({ enabled: true, step: "default" });
    const done = await approve(rosa, id, "default", later(800));
    // The confirmation said what the canary signature would cost her, before she gave it.
    expect(before.cost).toContain("you will not be able to approve the default step for this cycle");
    expect(done.verdict).toBe("PROMOTE TO DEFAULT");
    expect(await readPointer(database.db, AGENT, "approved_default")).toMatchObject({ candidateId: id });
  });

  it("after a rollback of the approved default the candidate reads ROLLED BACK, and no rollback target rolls forward", async () => {
    const id = world.add("A");
    await approve(carl, id, "canary", now);
    world.sealCanaryStage(id, later(600).toISOString());
    await approve(rosa, id, "default", later(700));
    const candidate = (await readPointer(database.db, AGENT, "approved_default"))!;
    expect(candidate.candidateId).toBe(id);
    const rb = await beginRollback(database, rosa.actor, { agent: AGENT, pointer: "approved_default", toDigest: PARENT.digest, reason: "refunds misrouted" }, { source: world.source, now: later(800) });
    await finishRollback(database, rosa.actor, { payload: rb.payload, response: rosa.key.assert(rb.options!) }, { source: world.source, now: later(800) });
    const { panel, rollback } = await approvalPanel(database.db, world.source, rosa.actor, id, later(900));
    expect(panel.status).toBe("ROLLED BACK");
    expect(panel.next).not.toMatch(/approved default names this candidate/);
    expect(panel.pendingStep).toBeNull();
    const options = await rollbackOptions(database.db, world.source, AGENT, "approved_default", rosa.actor);
    expect(options.current?.digest).toBe(PARENT.digest);
    expect(options.targets.map((t) => t.ref.digest)).not.toContain(candidate.digest);
    expect(rollback.find((r) => r.pointer === "approved_default")!.targets.map((t) => t.ref.digest)).not.toContain(candidate.digest);
  });

  it("after a rollback and a re-run that carries the canary stage, the default step is open again: the earlier default approval is history", async () => {
    const id = world.add("A");
    await approve(carl, id, "canary", later(5000)); // later than the other tests' rollbacks of the same bytes (they share this database)
    world.sealCanaryStage(id, later(5600).toISOString());
    await approve(rosa, id, "default", later(5700));
    const rb = await beginRollback(database, rosa.actor, { agent: AGENT, pointer: "approved_default", toDigest: PARENT.digest, reason: "refunds misrouted" }, { source: world.source, now: later(5800) });
    await finishRollback(database, rosa.actor, { payload: rb.payload, response: rosa.key.assert(rb.options!) }, { source: world.source, now: later(5800) });
    world.rerun(id, later(5900).toISOString()); // the sealed canary stage is still fresh: carried
    const { panel } = await approvalPanel(database.db, world.source, rosa.actor, id, later(6000));
    // Before: the default approval of the previous cycle still counted — PROMOTE TO DEFAULT with the parent in force, and the step "already decided".
    expect(panel).toMatchObject({ status: "READY FOR APPROVAL", pendingStep: "default", promotion: { state: "ready-for-default" } });
    expect(panel.availability).toMatchObject({ enabled: true, step: "default" });
    await approve(rosa, id, "default", later(6000));
    expect(await readPointer(database.db, AGENT, "approved_default")).toMatchObject({ candidateId: id });
  });

  it("STALE says what each stale check said before it went stale", async () => {
    const id = world.add("C"); // check 5 fails: protected cases regressed
    world.bumpEvaluator();
    const { panel } = await approvalPanel(database.db, world.source, rosa.actor, id, now);
    expect(panel.status).toBe("STALE");
    const five = panel.open.find((c) => c.check === 5);
    expect(five).toMatchObject({ status: "stale", was: "fail", said: expect.stringMatching(/protected/i) });
    expect(panel.said).toContain("check 5 failed");
  });
});
