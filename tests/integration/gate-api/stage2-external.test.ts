// Stage 2 for agents trained outside Lightgate, on both databases: the store copies metadata
// ["lightgate.receipt"] into store_rollouts.receipt_tag wherever it writes a rollout's metadata, and a
// candidate bound from a declaration admits exactly the train/val rollouts of no gate phase, started between
// the declaration and the bind, that carry its tag or ran its training resources or the candidate itself.
// A candidate registered directly (internal runs) still admits the rollouts that ran its resources id.
import { afterAll, beforeAll, expect, it } from "vitest";
import { registerCandidate } from "@/server/candidates/register";
import { stage2FromStore } from "@/server/receipts/rollups";
import type { JsonObject } from "@/server/store";
import { currentVersions } from "@/server/receipts/versions";
import { describeEachDialect } from "../../helpers/db";
import { AGENT, declaration, gateWorld, publishExams, type GateWorld } from "../../helpers/gate-api";

const pause = () => new Promise((r) => setTimeout(r, 25));

describeEachDialect("gate API: receipt tags and stage 2 for external rollouts", (dialect) => {
  let world: GateWorld;
  beforeAll(async () => {
    world = await gateWorld(dialect, "gate-stage2");
  }, 60_000);
  afterAll(() => world?.close());

  const tagOf = async (rolloutId: string) => (await world.database.db.storeRollout.findUniqueOrThrow({ where: { rolloutId } })).receiptTag;

  it("fills receipt_tag from metadata at enqueue, start and update; anything but a short string is no tag", async () => {
    const [tagged, long, number, empty, none] = await world.store.enqueueRollouts([
      { input: 1, metadata: { "lightgate.receipt": "rcpt-0123456789ab" } },
      { input: 2, metadata: { "lightgate.receipt": "r".repeat(65) } },
      { input: 3, metadata: { "lightgate.receipt": 7 } },
      { input: 4, metadata: { "lightgate.receipt": "" } },
      { input: 5 },
    ]);
    expect(await Promise.all([tagged, long, number, empty, none].map((r) => tagOf(r!.rollout_id)))).toEqual(["rcpt-0123456789ab", null, null, null, null]);
    expect(await tagOf((await world.store.enqueueRollouts([{ input: 6, metadata: { "lightgate.receipt": "r".repeat(64) } }]))[0]!.rollout_id)).toBe("r".repeat(64));
    const started = await world.store.startRollout({ input: "s", metadata: { "lightgate.receipt": "rcpt-started" } });
    expect(await tagOf(started.rollout_id)).toBe("rcpt-started");

    await world.store.updateRollout(none!.rollout_id, { metadata: { "lightgate.receipt": "rcpt-later", other: 1 } });
    expect(await tagOf(none!.rollout_id)).toBe("rcpt-later");
    await world.store.updateRollout(none!.rollout_id, { status: "cancelled" }); // metadata untouched: the tag stays
    expect(await tagOf(none!.rollout_id)).toBe("rcpt-later");
    await world.store.updateRollout(tagged!.rollout_id, { metadata: null });
    expect(await tagOf(tagged!.rollout_id)).toBeNull();
  });

  it("a declared receipt admits its tagged rollouts, its training lineage and its candidate — within its window, no gate phase, no test mode", async () => {
    const exams = await publishExams(world, "s2");
    const enqueue = async (mode: "train" | "val" | "test", resources: string | null, metadata: JsonObject = {}) =>
      (await world.store.enqueueRollouts([{ input: { mode }, mode, resources_id: resources, metadata }]))[0]!.rollout_id;

    const before = await enqueue("train", "foreign-apo-beam", {});
    await pause();
    const declared = await world.call("algorithm", "POST", "/v1/gate/receipts", declaration(world, exams));
    const receipt = declared.body.receipt_id as string;
    const tag = { "lightgate.receipt": receipt };
    const admitted = {
      tagged: await enqueue("train", "somebody-elses-resources", tag),
      lineage: await enqueue("train", "foreign-apo-beam"),
      validation: await enqueue("val", "somebody-elses-resources", tag),
      candidateItself: await enqueue("val", "foreign-trained"),
    };
    const excluded = {
      untagged: await enqueue("train", "somebody-elses-resources"),
      otherReceipt: await enqueue("train", "somebody-elses-resources", { "lightgate.receipt": "rcpt-ffffffffffff" }),
      gatePhase: await enqueue("train", "foreign-apo-beam", { ...tag, "lightgate.phase": "canary" }),
      testMode: await enqueue("test", "foreign-apo-beam", tag),
    };
    const put = await world.store.updateResources("foreign-trained", { prompt: { resource_type: "prompt_template", template: "trained", engine: "f-string" } });
    await pause();
    const bound = await world.call("algorithm", "POST", `/v1/gate/receipts/${receipt}/candidate`, { resources_id: "foreign-trained", version: put.version });
    expect(bound.status, JSON.stringify(bound.body)).toBe(201);
    await pause();
    const after = await enqueue("train", "foreign-apo-beam", tag);

    const versions = await currentVersions(world.database.db, AGENT);
    const stage2 = await stage2FromStore(world.database, { id: bound.body.candidate_id, resourcesId: "foreign-trained" }, versions);
    const ids = stage2.rollouts.map((r) => r.rolloutId);
    expect(ids.sort()).toEqual(Object.values(admitted).sort());
    for (const id of [before, after, ...Object.values(excluded)]) expect(ids).not.toContain(id);
    expect(stage2.rollouts.filter((r) => r.mode === "val").map((r) => r.rolloutId).sort()).toEqual([admitted.validation, admitted.candidateItself].sort());
    // The rollups are stored like an internal run's, so a second read recomputes nothing and agrees.
    const again = await stage2FromStore(world.database, { id: bound.body.candidate_id, resourcesId: "foreign-trained" }, versions);
    expect(again.rollouts).toEqual(stage2.rollouts);
  });

  it("a candidate registered directly (an internal run) admits the rollouts that ran its resources id, tags or not", async () => {
    const put = await world.store.updateResources("internal-run-u3", { policy: { resource_type: "lightgate_policy", digest: "x" } });
    const v = (await world.store.resourcesVersion("internal-run-u3", put.version))!;
    const declared = await world.call("algorithm", "POST", "/v1/gate/receipts", declaration(world, await publishExams(world, "int")));
    const stored = JSON.parse((await world.database.db.receiptDeclaration.findUniqueOrThrow({ where: { id: declared.body.receipt_id } })).declaration) as Record<string, unknown>;
    const { trainingResourcesIds: _t, ...stage1 } = stored;
    const candidate = await registerCandidate(world.database, {
      agent: AGENT,
      resource: { resourcesId: "internal-run-u3", version: v.version, digest: v.digest },
      stage1: stage1 as unknown as Parameters<typeof registerCandidate>[1]["stage1"],
      actor: { kind: "system", id: "trainer-worker", name: "worker", grants: [] },
    });
    const ran = (await world.store.enqueueRollouts([{ input: 1, mode: "train", resources_id: "internal-run-u3" }, { input: 2, mode: "test", resources_id: "internal-run-u3" }])).map((r) => r.rollout_id);
    const [tagged] = await world.store.enqueueRollouts([{ input: 3, mode: "train", resources_id: "foreign-prompt", metadata: { "lightgate.receipt": candidate.id } }]);
    const stage2 = await stage2FromStore(world.database, candidate, await currentVersions(world.database.db, AGENT));
    expect(stage2.rollouts.map((r) => r.rolloutId).sort()).toEqual(ran.sort());
    expect(stage2.rollouts.map((r) => r.rolloutId)).not.toContain(tagged!.rollout_id);
  });
});
