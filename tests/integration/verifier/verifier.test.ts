// The verifier as a real second process (scripts/verifier.ts, spawned with tsx, its own `verifier` key):
// it finds the canary outcomes a desk runner produced, re-reads each one's ticket in the Ticket DB and
// posts a destination verification — matched only when the ticket there is this rollout's and shows the
// expected outcome. The gate API's two routes are played by tests/helpers/fake-gate-verifications.ts over
// the real tables until the gate API is merged into this branch (then this test points at the real ones).
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { deskGateCases, publishDeskGateDatasets } from "@/server/desk/gate-datasets";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { DatabaseTicketDestination } from "@/server/environments/support-desk/destination-db";
import { ZEpisodeInput } from "@/server/runner/episode-input";
import { Runner } from "@/server/runner/runner";
import { describeEachDialect } from "../../helpers/db";
import { startFakeGate, type FakeGate } from "../../helpers/fake-gate-verifications";
import { CANDIDATE_PIN, enqueueGate, gateMetadata, writePins } from "../../helpers/gate-rollouts";
import { startScript } from "../../helpers/script-process";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

const desk = createSupportDesk();
const V2 = findDistribution("v2");
const REFERENCE_OWNER = { kind: "system" as const, id: "policy-owner-test", name: "Policy owner (test)", grants: [] };

describeEachDialect("the verifier re-reads canary tickets and posts destination verifications", (dialect) => {
  let s: StoreServer;
  let gate: FakeGate;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "verifier");
    await writePins(s.store);
  }, 60_000);
  afterAll(async () => {
    await gate?.close();
    await s?.close();
  });

  it("verifies each outcome end to end: matched, a ticket changed behind the runner, a forged target, a case not its own", async () => {
    const published = await publishDeskGateDatasets(s.database, { agent: "support-desk", distribution: "v2", heldOutCases: 1, canaryCases: 6, actor: REFERENCE_OWNER });
    const canary = deskGateCases(V2, "canary", 6);
    const enqueued = await enqueueGate(s.store, { heldOut: [], canary, probes: 0 });
    const [foreign] = await s.store.enqueueRollouts([{ input: { question: "what is 2 + 2?" }, mode: "test", resources_id: CANDIDATE_PIN, metadata: gateMetadata("canary", "foreign-case") }]);
    const tasks = [...enqueued.map((e) => ({ rolloutId: e.rolloutId, caseId: e.caseId })), { rolloutId: foreign!.rollout_id, caseId: "foreign-case" }];
    await s.database.db.gateRunTask.createMany({ data: tasks.map((t) => ({ rolloutId: t.rolloutId, gateRunId: "gr-test0001", phase: "canary", caseId: t.caseId, resourcesId: CANDIDATE_PIN, enqueuedAt: new Date(), state: "pending" })) });

    const tickets = new DatabaseTicketDestination(s.database);
    const runner = new Runner({ url: s.url, apiKey: s.keys.runner, workerId: "canary-runner", destinations: async () => tickets });
    while (await runner.runOnce());

    // What the destination shows now, per outcome, before anything is changed behind the runner.
    const outcome = async (rolloutId: string) => {
      const attempt = (await s.store.queryAttempts(rolloutId, { limit: -1 })).items.at(-1)!;
      const c = canary.find((x) => x.id === enqueued.find((e) => e.rolloutId === rolloutId)!.caseId)!;
      const task = desk.sampleTask(V2, ZEpisodeInput.parse(c.input).task_seed);
      const target = attempt.metadata!["lightgate.target"] as string;
      return { attempt, task, target, verdict: (await desk.verifyOutcome(task, target, tickets)).verdict };
    };
    const before = new Map(await Promise.all(enqueued.map(async (e) => [e.rolloutId, await outcome(e.rolloutId)] as const)));
    const reached = enqueued.filter((e) => before.get(e.rolloutId)!.verdict === "verified");
    expect(reached.length).toBeGreaterThanOrEqual(3);

    // The destination lost a write: the ticket the runner closed reads as open again.
    const drifted = reached[0]!.rolloutId;
    await s.database.db.ticket.update({ where: { id: before.get(drifted)!.target }, data: { status: "open" } });
    // An attempt that names another outcome's ticket (which does show an expected outcome).
    const forged = reached[1]!.rolloutId;
    const f = before.get(forged)!;
    await s.store.updateAttempt(forged, f.attempt.attempt_id, { metadata: { ...f.attempt.metadata, "lightgate.target": before.get(reached[2]!.rolloutId)!.target } });

    const verifierKey = await createApiKey(s.database.db, { name: "test verifier", role: "verifier" });
    gate = await startFakeGate(s.database, s.store, published.canary.datasetId);
    const env = { ...process.env, LIGHTGATE_VERIFIER_KEY: verifierKey.token, LIGHTGATE_DESK_TICKETS_URL: s.database.url, DATABASE_URL: "file:/nonexistent/elsewhere.db" };
    // One pass verifies what it can read; an outcome whose ticket it could not read this time (a busy database on a
    // loaded machine) is left "to retry", as the polling verifier would on its next poll — so poll again, at most 3 times.
    let first = startScript("scripts/verifier.ts", ["--url", gate.url, "--once"], env);
    expect(await first.exited, first.output()).toBe(0);
    for (let pass = 1; pass < 4 && !/ 0 to retry, 0 errors/.test(first.output()); pass++) {
      first = startScript("scripts/verifier.ts", ["--url", gate.url, "--once"], env);
      expect(await first.exited, first.output()).toBe(0);
    }

    const rows = await s.database.db.gateVerification.findMany();
    expect(rows.map((r) => r.rolloutId).sort()).toEqual(enqueued.map((e) => e.rolloutId).sort()); // the foreign case is not its to verify
    for (const row of rows) {
      const o = before.get(row.rolloutId)!;
      expect(row).toMatchObject({ method: "destination", gateRunId: "gr-test0001", verifierId: verifierKey.key.id, verifierKind: "service", confidence: null });
      expect(JSON.parse(row.expected!)).toEqual((await desk.verifyOutcome(o.task, o.target, tickets)).expected);
      const wantMatched = o.verdict === "verified" && row.rolloutId !== drifted && row.rolloutId !== forged;
      expect(row.matched, `${row.rolloutId}: ${row.note}`).toBe(wantMatched);
      if (row.rolloutId === drifted) expect(row.note).toMatch(/status is "open", expected "(closed|pending_human)"/);
      else if (row.rolloutId === forged) expect(row.note).toMatch(/is not the record this rollout's episode works on/);
      else {
        expect(row.note).toMatch(new RegExp(`^${o.target}: `));
        expect(JSON.parse(row.observed!)).toMatchObject({ id: o.target, taskId: o.task.id });
      }
    }
    expect(first.output()).toMatch(/1 skipped/);

    // Nothing is verified twice: a second pass finds nothing pending that is its own.
    const postedBefore = gate.posts.length;
    const second = startScript("scripts/verifier.ts", ["--url", gate.url, "--once"], env);
    expect(await second.exited, second.output()).toBe(0);
    expect(second.output()).toMatch(/verifier: 0 matched, 0 not matched/);
    expect(await s.database.db.gateVerification.count()).toBe(enqueued.length);
    expect(gate.posts).toHaveLength(postedBefore);
  }, 150_000);
}, { postgresql: "full-run" });
