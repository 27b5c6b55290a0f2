// Issue 26 — "judge every new version, opt-in per agent" — over real HTTP on both databases. A policy owner turns
// the setting on through tRPC; the learner's algorithm key publishes versions through the store's REST API and
// never calls /v1/gate; the background pass (server/auto-judge/step.ts) declares each judged version's receipt,
// binds it and requests its gate run, pinned to the right parent digest; versions that arrive while one is pending
// are coalesced into the newest; runners take one version to a verdict; turning it off stops it. Hostile input on
// the setting's procedure is a 4xx that writes nothing and is audited.
import superjson from "superjson";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureStanding } from "@/server/auto-judge/standing";
import { judgeNewVersions } from "@/server/auto-judge/step";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { describeEachDialect } from "../../helpers/db";
import { SYSTEM } from "../../helpers/auth";
import { AGENT, cases, gateWorld, type GateWorld } from "../../helpers/gate-api";
import { runnerLoop, verifierLoop, type ExamWorld } from "../../helpers/learner-exam";
import { serveTrpc, type TrpcServer } from "../../helpers/trpc-server";
import { keyHeaders } from "../../helpers/matrix-client";
import { orchestrateGates } from "@/server/receipts/gate-queue";
import { stepGateRun } from "@/server/receipts/gate-run/step";

const R = "faq-prompt-auto";
const prompt = (n: number) => ({ prompt: { resource_type: "prompt_template", template: `Answer {question} briefly, cite the knowledge base (round ${n}).`, engine: "f-string" } });

describeEachDialect(
  "judging every new version, opt-in per agent",
  (dialect) => {
    let world: GateWorld;
    let trpc: TrpcServer;
    let owner: { headers: Record<string, string> };
    let admin: { headers: Record<string, string> };
    let viewer: { headers: Record<string, string> };
    const published: { version: number; digest: string }[] = [];

    beforeAll(async () => {
      world = await gateWorld(dialect, "autojudge");
      // The agent's exam under the names the pass looks for, and its boundary and tool contract.
      for (const [kind, n] of [["held_out", 20], ["canary", 4]] as const) {
        const r = await world.call("policy", "POST", "/v1/gate/datasets", { name: `${AGENT}/${kind === "held_out" ? "held-out" : "canary"}`, kind, cases: cases(n, `aj-${kind}`) });
        if (r.status !== 201) throw new Error(JSON.stringify(r.body));
      }
      await publishRegistryEntry(world.database, { kind: "canary_boundary", name: "default", agent: AGENT, body: { maxTasks: 4, maxWallTimeSeconds: 300, allowedTools: ["search_kb"], maxCostUsd: 1, allowedSideEffects: [] }, actor: SYSTEM });
      await publishRegistryEntry(world.database, { kind: "tool_contract", name: "search_kb", agent: AGENT, body: { tool: "search_kb", side_effects: [] }, actor: SYSTEM });
      await publishRegistryEntry(world.database, { kind: "model_server", name: "rule-based", agent: AGENT, version: "1", body: { pricing: { input_usd_per_million_tokens: 0.5, output_usd_per_million_tokens: 1.5 } }, actor: SYSTEM });
      trpc = await serveTrpc(world.database);
      owner = await world.person([{ role: "policy_owner", agent: AGENT }], "Pat Policy");
      admin = await world.person([{ role: "admin", agent: null }], "Ada Admin");
      viewer = await world.person([{ role: "viewer", agent: null }], "Vic Viewer");
    }, 120_000);
    afterAll(async () => {
      await trpc?.close();
      await world?.close();
    });

    async function mutate(headers: Record<string, string>, input: unknown) {
      const res = await fetch(`${trpc.url}/agents.setAutoJudge`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(superjson.serialize(input)) });
      return { status: res.status, body: (await res.json()) as { result?: { data: { json: { sinceVersion: number } } }; error?: { json: { message: string } } } };
    }

    /** What the algorithm does: update_resources through the store's REST API with its own key. */
    async function publish(n: number) {
      const r = await world.call("algorithm", "POST", `/v1/agl/resources/${R}`, prompt(n));
      expect(r.status).toBe(200);
      const v = (await world.store.resourcesVersion(R, r.body.version as number))!;
      published.push({ version: v.version, digest: v.digest });
      return v;
    }

    const rows = () => world.database.db.autoJudgeVersion.findMany({ where: { agent: AGENT, resourcesId: R }, orderBy: { version: "asc" } });
    const gateCalls = () => world.database.db.auditEvent.count({ where: { actorId: { not: "lightgate-auto-judge" }, action: { in: ["receipt.declare", "gate.run.request"] } } });

    it("turns a policy owner's setting into declared receipts and requested gate runs, coalescing what arrives meanwhile", async () => {
      const on = await mutate(owner.headers, { agent: AGENT, resourcesId: R, enabled: true });
      expect(on.status).toBe(200);
      expect(on.body.result!.data.json.sinceVersion).toBe(0);
      expect(await world.database.db.auditEvent.count({ where: { action: "auto_judge.enable", targetId: AGENT } })).toBe(1);

      // Two versions before the pass runs: the store answered without judging anything (no candidate yet).
      const v1 = await publish(1);
      const v2 = await publish(2);
      expect(await world.database.db.candidate.count({ where: { agent: AGENT } })).toBe(0);

      const first = await judgeNewVersions(world.database, { deadlineSeconds: 60 });
      expect(first.map((o) => [o.version, o.state])).toEqual([[2, "judging"]]);
      let seen = await rows();
      expect(seen.map((r) => [r.version, r.state, r.coalescedInto])).toEqual([[1, "coalesced", 2], [2, "judging", null]]);
      // The parent before an approved default exists: the version before, pinned by its digest.
      const r2 = seen[1]!;
      expect([r2.parentResourcesId, r2.parentVersion, r2.parentDigest]).toEqual([R, 1, v1.digest]);
      const declaration = await world.database.db.receiptDeclaration.findUniqueOrThrow({ where: { id: r2.receiptId! } });
      const stage1 = JSON.parse(declaration.declaration) as { parent: { digest: string; version: number }; declaredBy: string; data: { heldOut: { caseCount: number } } };
      expect(stage1.parent).toMatchObject({ resourceId: R, version: 1, digest: v1.digest });
      expect(stage1.declaredBy).toBe("lightgate-auto-judge");
      expect(stage1.data.heldOut.caseCount).toBe(20);
      expect(declaration.candidateId).toBe(r2.candidateId);
      const candidate = await world.database.db.candidate.findUniqueOrThrow({ where: { id: r2.candidateId! } });
      expect([candidate.resourcesId, candidate.version, candidate.digest]).toEqual([R, 2, v2.digest]);
      expect((await world.database.db.gateRun.findUniqueOrThrow({ where: { id: r2.gateRunId! } })).status).toBe("queued");

      // While v2's gate run is open, v3 and v4 wait; another pass starts nothing.
      await publish(3);
      await publish(4);
      expect(await judgeNewVersions(world.database)).toEqual([]);
      seen = await rows();
      expect(seen.map((r) => r.state)).toEqual(["coalesced", "judging", "waiting", "waiting"]);
      // The training process never called /v1/gate: every declaration and gate-run request is Lightgate's.
      expect(await gateCalls()).toBe(0);

      // The learner's key still cannot write or read the exam.
      expect((await world.call("algorithm", "POST", "/v1/gate/datasets", { name: `${AGENT}/held-out`, kind: "held_out", cases: cases(1, "forged") })).status).toBe(403);
      const heldOut = seen[1]!.receiptId && JSON.parse(declaration.declaration).data.heldOut.id;
      const exam = await world.call("algorithm", "GET", `/v1/gate/datasets/${heldOut}`);
      expect(JSON.stringify(exam.body)).not.toContain("aj-held_out answer");
      expect((await mutate(keyHeaders(world.keys.get("algorithm")!), { agent: AGENT, resourcesId: R, enabled: false })).status).toBe(403);
    });

    it("takes the judged version to a verdict through the user's runners, then judges the newest waiting version against the approved default", async () => {
      const running = (await rows()).find((r) => r.state === "judging")!;
      const stop = new AbortController();
      const exam: ExamWorld = { ...world, exams: { heldOut: "", canary: "" }, destination: new Map(), stop };
      const loops = [orchestrateGates(world.database, stop.signal, { intervalMs: 50, owner: "aj-orchestrator" }), runnerLoop(exam, world.keys.get("runner")!, "honest", stop.signal), verifierLoop(exam, stop.signal)];
      try {
        for (const until = Date.now() + 150_000; ; await new Promise((r) => setTimeout(r, 200))) {
          const run = await world.database.db.gateRun.findUniqueOrThrow({ where: { id: running.gateRunId! } });
          if (run.status === "done" || run.status === "failed") break;
          if (Date.now() > until) throw new Error(`gate run still ${run.phase}`);
        }
      } finally {
        stop.abort();
        await Promise.all(loops);
      }
      const view = await world.call("algorithm", "GET", `/v1/gate/gate-runs/${running.gateRunId}`);
      expect(view.body.status).toBe("done");
      expect(view.body.verdict).toEqual(expect.any(String));
      expect(view.body.checks).toHaveLength(7);
      // The learner saw none of the gate's rollouts.
      const tasks = await world.database.db.gateRunTask.findMany({ where: { gateRunId: running.gateRunId! }, select: { rolloutId: true } });
      const listed = await world.call("algorithm", "GET", "/v1/agl/rollouts?limit=500");
      expect((listed.body.items as { rollout_id: string }[]).filter((i) => tasks.some((t) => t.rolloutId === i.rollout_id))).toEqual([]);

      // With an approved default, it is the parent.
      await adoptRootDefault(world.database, { agent: AGENT, target: { resourceId: world.parent.resources_id, version: world.parent.version, digest: world.parent.digest as `sha256:${string}` }, actor: SYSTEM, reason: "in production before receipts" });
      const next = await judgeNewVersions(world.database, { deadlineSeconds: 60 });
      expect(next.map((o) => [o.version, o.state])).toEqual([[4, "judging"]]);
      const seen = await rows();
      expect(seen.map((r) => [r.version, r.state, r.coalescedInto])).toEqual([[1, "coalesced", 2], [2, "judged", null], [3, "coalesced", 4], [4, "judging", null]]);
      expect(seen[1]!.reason).toContain("done");
      expect([seen[3]!.parentResourcesId, seen[3]!.parentVersion, seen[3]!.parentDigest]).toEqual([world.parent.resources_id, world.parent.version, world.parent.digest]);
      expect(await gateCalls()).toBe(0);
    }, 200_000);

    it("stops when turned off: later versions are neither recorded nor judged", async () => {
      const off = await mutate(owner.headers, { agent: AGENT, resourcesId: R, enabled: false });
      expect(off.status).toBe(200);
      const before = await world.database.db.candidate.count({ where: { agent: AGENT } });
      await publish(5);
      expect(await judgeNewVersions(world.database)).toEqual([]);
      expect((await rows()).map((r) => r.version)).toEqual([1, 2, 3, 4]);
      expect(await world.database.db.candidate.count({ where: { agent: AGENT } })).toBe(before);
      expect(await world.database.db.auditEvent.count({ where: { action: "auto_judge.disable", targetId: AGENT } })).toBe(1);

      // What the model page reads, as a viewer: the setting off, each version's state, whom v1 and v3 were coalesced into.
      const url = `${trpc.url}/agents.autoJudge?input=${encodeURIComponent(JSON.stringify(superjson.serialize({ agent: AGENT })))}`;
      const res = await fetch(url, { headers: viewer.headers });
      expect(res.status).toBe(200);
      const view = ((await res.json()) as { result: { data: { json: { settings: { resourcesId: string; enabled: boolean; changedBy: string; versions: { version: number; state: string; coalescedInto: number | null; parent: string | null; gateRunStatus: string | null; verdict: string | null }[] }[] } } } }).result.data.json;
      const setting = view.settings.find((x) => x.resourcesId === R)!;
      expect([setting.enabled, setting.changedBy]).toEqual([false, "Pat Policy"]);
      expect(setting.versions.map((v) => [v.version, v.state, v.coalescedInto])).toEqual([[4, "judging", null], [3, "coalesced", 4], [2, "judged", null], [1, "coalesced", 2]]);
      expect(setting.versions[2]!.gateRunStatus).toBe("done");
      expect(setting.versions[2]!.verdict).toEqual(expect.any(String));
      expect(setting.versions[2]!.parent).toBe(`${R} v1`);
    });

    it("records why a version cannot be judged instead of failing", async () => {
      const other = "agent-without-exam";
      expect((await mutate(admin.headers, { agent: other, resourcesId: "bare-prompt", enabled: true })).status).toBe(200);
      for (const n of [1, 2]) expect((await world.call("algorithm", "POST", "/v1/agl/resources/bare-prompt", prompt(n))).status).toBe(200);
      const outcomes = await judgeNewVersions(world.database);
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]!.state).toBe("unjudgeable");
      const row = await world.database.db.autoJudgeVersion.findUniqueOrThrow({ where: { agent_resourcesId_version: { agent: other, resourcesId: "bare-prompt", version: 2 } } });
      expect(row.state).toBe("unjudgeable");
      expect(row.reason).toContain(`no held-out dataset published as "${other}/held-out"`);
      expect(row.reason).toContain("no canary boundary");
    });

    it("a check that finds nothing declarable hands its lease back: a version claimed right after still declares its successor's receipt", async () => {
      const other = "agent-without-exam";
      const lineage = "bare-prompt-lease";
      expect((await mutate(admin.headers, { agent: other, resourcesId: lineage, enabled: true })).status).toBe(200);
      const checkedAt = async () => (await world.database.db.autoJudgeSetting.findUniqueOrThrow({ where: { agent_resourcesId: { agent: other, resourcesId: lineage } } })).standingCheckedAt!.getTime();
      // The background check: no exam, nothing to declare.
      expect(await ensureStanding(world.database, { agent: other, resourcesId: lineage, standingReceiptId: null, standingCheckedAt: null })).toBeNull();
      const first = await checkedAt();
      expect(Date.now() - first).toBeGreaterThan(10_000); // the lease is free again
      // A claim's own try a moment later takes the lease (and, still with nothing to declare, hands it back).
      expect(await ensureStanding(world.database, { agent: other, resourcesId: lineage, standingReceiptId: null, standingCheckedAt: new Date(first) }, { now: true })).toBeNull();
      expect(await checkedAt()).toBeGreaterThan(first);
    });

    it("judges a version once when two passes run at the same moment (as two server processes would)", async () => {
      const race = "faq-prompt-race";
      expect((await mutate(admin.headers, { agent: AGENT, resourcesId: race, enabled: true })).status).toBe(200);
      for (const n of [1, 2, 3]) expect((await world.call("algorithm", "POST", `/v1/agl/resources/${race}`, prompt(n))).status).toBe(200);
      const [a, b] = await Promise.all([judgeNewVersions(world.database, { deadlineSeconds: 60 }), judgeNewVersions(world.database, { deadlineSeconds: 60 })]);
      const started = [...a, ...b].filter((o) => o.resourcesId === race);
      expect(started.map((o) => [o.version, o.state])).toEqual([[3, "judging"]]);
      const seen = await world.database.db.autoJudgeVersion.findMany({ where: { agent: AGENT, resourcesId: race }, orderBy: { version: "asc" } });
      expect(seen.map((r) => [r.version, r.state, r.coalescedInto])).toEqual([[1, "coalesced", 3], [2, "coalesced", 3], [3, "judging", null]]);
      // The approved default adopted above is the parent.
      expect(seen[2]!.parentResourcesId).toBe(world.parent.resources_id);
      // One receipt bound for the race; the one declared ahead of v4 stands unbound.
      expect(await world.database.db.receiptDeclaration.count({ where: { declaredById: "lightgate-auto-judge", declaration: { contains: race }, candidateId: { not: null } } })).toBe(1);
      expect(await world.database.db.receiptDeclaration.count({ where: { declaredById: "lightgate-auto-judge", declaration: { contains: race }, candidateId: null } })).toBe(1);
    });

    it("binds the training rollouts that ran since the previous version: the next version's receipt is declared ahead of it", async () => {
      const lineage = "faq-prompt-window";
      expect((await world.call("algorithm", "POST", `/v1/agl/resources/${lineage}`, prompt(1))).status).toBe(200);
      expect((await mutate(admin.headers, { agent: AGENT, resourcesId: lineage, enabled: true })).status).toBe(200);
      const setting = () => world.database.db.autoJudgeSetting.findUniqueOrThrow({ where: { agent_resourcesId: { agent: AGENT, resourcesId: lineage } } });
      expect(await judgeNewVersions(world.database)).toEqual([]);
      const standing = (await setting()).standingReceiptId;
      expect(standing).toMatch(/^rcpt-/);

      // The algorithm trains on v1: train and validation rollouts of the lineage, one of another id, one before nothing.
      const enqueue = async (rows: { mode: string; resources_id: string }[]) => {
        const r = await world.call("algorithm", "POST", "/v1/agl/queues/rollouts/enqueue", { rollouts: rows.map((x, i) => ({ input: { question: `q${i}` }, ...x })) });
        expect(r.status).toBe(201);
        return (r.body as { rollout_id: string }[]).map((x) => x.rollout_id);
      };
      const trained = await enqueue([{ mode: "train", resources_id: lineage }, { mode: "train", resources_id: lineage }, { mode: "val", resources_id: lineage }]);
      const elsewhere = await enqueue([{ mode: "train", resources_id: "some-other-prompt" }]);
      expect((await world.call("algorithm", "POST", `/v1/agl/resources/${lineage}`, prompt(2))).status).toBe(200);

      const judged = await judgeNewVersions(world.database, { deadlineSeconds: 60 });
      const mine = judged.filter((o) => o.resourcesId === lineage);
      expect(mine.map((o) => [o.version, o.state])).toEqual([[2, "judging"]]);
      const row = await world.database.db.autoJudgeVersion.findUniqueOrThrow({ where: { agent_resourcesId_version: { agent: AGENT, resourcesId: lineage, version: 2 } } });
      expect(row.receiptId).toBe(standing);
      const held = await world.database.db.retentionHold.findMany({ where: { reason: `receipt:${row.candidateId}` }, select: { rolloutId: true } });
      expect(held.map((h) => h.rolloutId).sort()).toEqual([...trained].sort());
      expect(held.map((h) => h.rolloutId)).not.toContain(elsewhere[0]);
      // The next version's receipt stands already, declared after this one was bound.
      const next = (await setting()).standingReceiptId;
      expect(next).toMatch(/^rcpt-/);
      expect(next).not.toBe(standing);

      // A standing receipt whose pins changed is never bound: a new evaluator version makes v3's receipt a fresh one.
      const evaluatorRow = await world.database.db.registryEntry.findFirstOrThrow({ where: { kind: "evaluator", agent: { in: [AGENT, "*"] } }, orderBy: { createdAt: "desc" } });
      await publishRegistryEntry(world.database, { kind: "evaluator", name: evaluatorRow.name, agent: evaluatorRow.agent, version: `${evaluatorRow.version}.1`, body: JSON.parse(evaluatorRow.body) as Record<string, unknown>, actor: SYSTEM });
      expect((await world.call("algorithm", "POST", `/v1/agl/resources/${lineage}`, prompt(3))).status).toBe(200);
      // v2's run ends with no runner at work: every phase past its deadline (the step is told the time).
      for (let day = 1; ; day++) {
        const step = await stepGateRun(world.database, row.gateRunId!, "aj-window", 60, new Date(Date.now() + day * 86_400_000));
        if (step?.status === "done" || step?.status === "failed") break;
        if (day > 30) throw new Error(`gate run still ${step?.phase}`);
      }
      const again = (await judgeNewVersions(world.database, { deadlineSeconds: 60 })).filter((o) => o.resourcesId === lineage);
      expect(again.map((o) => [o.version, o.state])).toEqual([[3, "judging"]]);
      const v3 = await world.database.db.autoJudgeVersion.findUniqueOrThrow({ where: { agent_resourcesId_version: { agent: AGENT, resourcesId: lineage, version: 3 } } });
      expect(v3.receiptId).not.toBe(next);
      expect((await world.database.db.receiptDeclaration.findUniqueOrThrow({ where: { id: next! } })).candidateId).toBeNull();
    });

    it("refuses hostile input with a 4xx that writes nothing, and audits the refusal", async () => {
      const settings = await world.database.db.autoJudgeSetting.count();
      const refusedBefore = await world.database.db.auditEvent.count({ where: { action: { startsWith: "request.refused" }, targetId: "trpc agents.setAutoJudge" } });
      const attempts: [Record<string, string>, unknown, number][] = [
        [owner.headers, { agent: "__proto__", resourcesId: R, enabled: true }, 403],
        [admin.headers, { agent: "__proto__", resourcesId: R, enabled: true }, 400],
        [admin.headers, { agent: "constructor", resourcesId: "__proto__", enabled: true }, 200],
        [admin.headers, { agent: AGENT, resourcesId: "x".repeat(100_000), enabled: true }, 400],
        [admin.headers, { agent: "a".repeat(5_000), resourcesId: R, enabled: true }, 400],
        [admin.headers, { agent: AGENT, resourcesId: "latest", enabled: true }, 400],
        [admin.headers, { agent: AGENT, resourcesId: "lg-pin-0123456789abcdef", enabled: true }, 400],
        [admin.headers, { agent: AGENT, resourcesId: R, enabled: "yes" }, 400],
        [viewer.headers, { agent: AGENT, resourcesId: R, enabled: true }, 403],
      ];
      for (const [headers, input, status] of attempts) {
        const r = await mutate(headers, input);
        expect(r.status, JSON.stringify(input).slice(0, 80)).toBe(status);
        if (status >= 400) expect(r.body.error!.json.message.length).toBeGreaterThan(0);
      }
      // Only the well-formed one (an odd but plain name) was written.
      expect(await world.database.db.autoJudgeSetting.count()).toBe(settings + 1);
      expect(await world.database.db.autoJudgeSetting.findUnique({ where: { agent_resourcesId: { agent: "constructor", resourcesId: "__proto__" } } })).not.toBeNull();
      const refused = await world.database.db.auditEvent.count({ where: { action: { startsWith: "request.refused" }, targetId: "trpc agents.setAutoJudge" } });
      expect(refused).toBeGreaterThan(refusedBefore);
    });
  },
  // Both databases in every run: the issue's proof ("each version it publishes gets a candidate page with its
  // verdict next to its parent, on both databases") and the claim's compare-and-set under PostgreSQL's locks.
  { postgresql: "always" },
);
