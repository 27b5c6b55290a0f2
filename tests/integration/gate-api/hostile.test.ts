// The hostile suite's gate API cases (tests/hostile/families/gate.ts, part of the pointers family in npm
// test and bench:hostile) against the production server's listener on both databases, without a Next.js
// build: nothing ≥ 500, every 4xx names the problem, no refused request wrote a row, the 80 MiB bodies and
// the cross-site cookie are refused, the server still answers.
import { afterAll, beforeAll, expect, it } from "vitest";
import { HUMAN_ROLES, type HumanRole, type ServiceRole } from "@/lib/auth/scopes";
import type { Credentials, Identity } from "../../hostile/credentials";
import type { SuiteContext } from "../../hostile/context";
import { gateApiCases } from "../../hostile/families/gate";
import { makeGateFixtures, type GateFixtures } from "../../hostile/gate-fixtures";
import { closeConnections } from "../../hostile/http";
import { runFamily } from "../../hostile/runner";
import { violationReport } from "../../hostile/suite";
import { describeEachDialect } from "../../helpers/db";
import { AglClient } from "../../helpers/agl-client";
import { declaration, EVALUATOR, gateWorld, publishExams, type GateWorld } from "../../helpers/gate-api";
import { keyHeaders, UNKNOWN_KEY } from "../../helpers/matrix-client";

const RUNS = { sqlite: Number(process.env.HOSTILE_RUNS ?? 400), postgresql: Number(process.env.HOSTILE_RUNS ?? 200) } as const;

describeEachDialect("gate API: hostile input", (dialect) => {
  let world: GateWorld;
  let ctx: SuiteContext;
  let gate: GateFixtures;

  beforeAll(async () => {
    world = await gateWorld(dialect, "gate-hostile");
    const services = Object.fromEntries([...world.keys].map(([role, token]) => [role, { label: `key:${role}`, headers: keyHeaders(token), cookie: false }])) as Record<ServiceRole, Identity>;
    const people = {} as Record<HumanRole, Identity>;
    for (const role of HUMAN_ROLES) people[role] = { label: `session:${role}`, headers: { cookie: (await world.person([{ role, agent: null }])).headers.cookie! }, cookie: true };
    const creds: Credentials = { origin: new URL(world.url).origin, people, services, anonymous: { label: "anonymous", headers: {}, cookie: false }, forged: [{ label: "forged:key", headers: { authorization: `Bearer ${UNKNOWN_KEY}` }, cookie: false }] };
    // A candidate and a finished rollout for the fixtures to hang the gate run and its canary task on.
    const declared = await world.call("algorithm", "POST", "/v1/gate/receipts", declaration(world, await publishExams(world, "hz")));
    const put = await world.store.updateResources("hostile-trained", { prompt: { resource_type: "prompt_template", template: "t", engine: "f-string" } });
    const bound = await world.call("algorithm", "POST", `/v1/gate/receipts/${declared.body.receipt_id}/candidate`, { resources_id: "hostile-trained", version: put.version });
    const runner = new AglClient(world.url, keyHeaders(world.keys.get("runner")!));
    const finished = await runner.startRollout({ q: "done" }, { worker_id: "hostile-worker" });
    await runner.request("POST", `/rollouts/${finished.rollout_id}/attempts/${finished.attempt.attempt_id}`, { json: { status: "succeeded" } });
    const url = new URL(world.url);
    gate = await makeGateFixtures(url, creds, world.database, { agent: "foreign-agent", parent: { resources_id: world.parent.resources_id, version: world.parent.version }, evaluator: EVALUATOR, candidateId: bound.body.candidate_id, finishedRolloutId: finished.rollout_id });
    ctx = { url, creds, fixtures: { gate } as SuiteContext["fixtures"], procedures: [] };
  }, 120_000);
  afterAll(async () => {
    closeConnections();
    await world?.close();
  });

  it(`${RUNS[dialect]} generated requests: nothing ≥ 500, every refusal named, nothing half-written`, { timeout: 300_000 }, async () => {
    const report = await runFamily({ family: "gate", url: ctx.url, counter: world.rows, cases: gateApiCases(ctx, gate), runs: RUNS[dialect], seed: Number(process.env.HOSTILE_SEED ?? 20_261_213) });
    console.log(`gate API hostile [${dialect}]: ${JSON.stringify(report.statuses)} in ${report.seconds} s`);
    expect(report.requests).toBeGreaterThanOrEqual(RUNS[dialect]);
    expect(report.violations, violationReport([report])).toEqual([]);
    // The draw reached past the door: validation refusals and accepted requests, not only 401/403/404.
    expect(Object.keys(report.statuses)).toEqual(expect.arrayContaining(["200", "400", "403", "404", "405", "413"]));
  });
});
