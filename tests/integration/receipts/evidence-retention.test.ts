// Retention keeps a receipt's evidence (release-gate spec: "Retention never deletes … a receipt's admitted
// rollouts"), on both dialects, through the gate API over HTTP: a receipt declared through /v1/gate admits its
// training rollouts when the gate run seals stage 2; a retention pass with a short age afterwards deletes an
// unrelated finished rollout but none of the admitted ones, and checks 2 and 3 stay what they were — not stale.
// Receipts sealed before stage 2 took holds get them from the migration's one-time backfill.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Dialect } from "@/server/db/config";
import { stepGateRun } from "@/server/receipts/gate-run/step";
import { describeEachDialect } from "../../helpers/db";
import { declaration, gateWorld, publishExams, type GateWorld } from "../../helpers/gate-api";
import { makeSpan } from "../../helpers/store";

/** The backfill statement of the migration that introduced the holds (its first statement), as deploy runs it. */
function backfillStatement(dialect: Dialect) {
  const file = fs.readFileSync(path.join("prisma/migrations", dialect, "20261205130000_parent_stays_loadable/migration.sql"), "utf8");
  const sql = file.split("\n").filter((line) => !line.startsWith("--")).join("\n");
  return sql.slice(0, sql.indexOf(";") + 1);
}

const pause = (ms = 25) => new Promise((r) => setTimeout(r, ms));

describeEachDialect("retention keeps a receipt's admitted rollouts", (dialect) => {
  let world: GateWorld;
  beforeAll(async () => {
    world = await gateWorld(dialect, "evidence-retention");
  }, 60_000);
  afterAll(() => world?.close());

  /** A finished rollout with a few spans and one succeeded attempt, as a runner leaves it. */
  async function finishedRollout(mode: "train" | "val", resourcesId: string, metadata: Record<string, string> = {}) {
    const r = await world.store.startRollout({ input: { mode }, mode, resources_id: resourcesId, metadata });
    const names = ["llm.call", "reward"];
    await world.store.addSpans(names.map((n, k) => makeSpan(r.rollout_id, r.attempt.attempt_id, k + 1, n)));
    await world.store.updateAttempt(r.rollout_id, "latest", { status: "succeeded" });
    return r.rollout_id;
  }
  const checks23 = async (receipt: string) => {
    const view = await world.call("algorithm", "GET", `/v1/gate/receipts/${receipt}`);
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    return (view.body.checks as { id: number; status: string; explanation: string }[]).filter((c) => c.id === 2 || c.id === 3);
  };

  it("a retention pass with a short age keeps a bound candidate's admitted training rollouts; checks 2 and 3 stay fresh", async () => {
    const exams = await publishExams(world, "keep");
    const declared = await world.call("algorithm", "POST", "/v1/gate/receipts", declaration(world, exams));
    expect(declared.status, JSON.stringify(declared.body)).toBe(201);
    const receipt = declared.body.receipt_id as string;
    await pause();
    const admitted = [
      await finishedRollout("train", "foreign-apo-beam", { "lightgate.receipt": receipt }),
      await finishedRollout("train", "foreign-apo-beam"),
      await finishedRollout("val", "somebody-elses-resources", { "lightgate.receipt": receipt }),
    ];
    const unrelated = await finishedRollout("train", "somebody-elses-resources");
    const put = await world.store.updateResources("foreign-kept", { prompt: { resource_type: "prompt_template", template: "kept", engine: "f-string" } });
    await pause();
    const bound = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/candidate`, { resources_id: "foreign-kept", version: put.version });
    expect(bound.status, JSON.stringify(bound.body)).toBe(201);

    // The gate run's first step seals stage 2 from the store: that is the admission.
    const run = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/gate-runs`, { deadline_seconds: 60 });
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    await stepGateRun(world.database, run.body.gate_run_id, "test-orchestrator", 60);
    const stage2 = await world.database.db.receiptLink.findFirstOrThrow({ where: { candidateId: bound.body.candidate_id, kind: "stage2" } });
    const sealedIds = (JSON.parse(stage2.content) as { rollouts: { rolloutId: string }[] }).rollouts.map((r) => r.rolloutId);
    expect(sealedIds.sort()).toEqual([...admitted].sort());
    const before = await checks23(receipt);
    expect(before.map((c) => c.status)).not.toContain("stale");
    expect(before.find((c) => c.id === 3)!.status).toBe("pass");

    await pause(1100);
    const pruned = await world.store.pruneFinishedRollouts(1);
    expect(pruned.rollouts).toBeGreaterThanOrEqual(1); // the pass ran: the unrelated finished rollout is gone
    expect(await world.store.getRollout(unrelated)).toBeNull();
    for (const id of admitted) {
      expect(await world.store.getRollout(id), id).not.toBeNull();
      expect((await world.store.querySpans({ rollout_id: id })).total).toBe(2);
    }
    const after = await checks23(receipt);
    expect(after).toEqual(before);

    // A receipt sealed before stage 2 held its rollouts: the migration's one-time backfill holds them.
    const reason = `receipt:${bound.body.candidate_id}`;
    await world.database.db.retentionHold.deleteMany({ where: { reason } });
    await world.database.db.$executeRawUnsafe(backfillStatement(dialect));
    const held = await world.database.db.retentionHold.findMany({ where: { reason }, select: { rolloutId: true } });
    expect(held.map((h) => h.rolloutId).sort()).toEqual([...admitted].sort());
  }, 120_000);

  it("holds them from the bind on, before any gate run seals stage 2", async () => {
    const declared = await world.call("algorithm", "POST", "/v1/gate/receipts", declaration(world, await publishExams(world, "bind")));
    const receipt = declared.body.receipt_id as string;
    await pause();
    const admitted = [await finishedRollout("train", "foreign-apo-beam", { "lightgate.receipt": receipt }), await finishedRollout("val", "foreign-apo-beam")];
    const unrelated = await finishedRollout("train", "somebody-elses-resources");
    const put = await world.store.updateResources("foreign-bound", { prompt: { resource_type: "prompt_template", template: "bound", engine: "f-string" } });
    await pause();
    const bound = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/candidate`, { resources_id: "foreign-bound", version: put.version });
    expect(bound.status, JSON.stringify(bound.body)).toBe(201);
    await pause(1100);
    await world.store.pruneFinishedRollouts(1);
    expect(await world.store.getRollout(unrelated)).toBeNull();
    for (const id of admitted) expect(await world.store.getRollout(id), id).not.toBeNull();
  }, 60_000);
});
