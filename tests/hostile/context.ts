// What every family generator gets: the server, the identities, and real objects to aim at (a running
// rollout with a span, a finished one, a resources id, the reference candidate and its agent, the gate
// API's exams, receipt and canary task), made
// through the server's own REST API and — for the reference candidate — the gate's seeding code.
import fc from "fast-check";
import { openDatabase } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { everyone, type Credentials, type Identity } from "./credentials";
import { makeGateFixtures, type GateFixtures } from "./gate-fixtures";
import type { HostileCase } from "./http";
import type { Procedure } from "./procedures";

export type Fixtures = {
  rolloutId: string;
  attemptId: string;
  finishedRolloutId: string;
  spanId: string;
  resourcesId: string;
  workerId: string;
  agent: string;
  candidateId: string;
  /** A person the auth family guesses passwords for (and locks out), so the demo people stay usable. */
  target: { email: string; password: string };
  /** Published exams, a declared receipt, a gate run with a canary task (the gate API's cases aim at them). */
  gate: GateFixtures;
};
export type SuiteContext = { url: URL; creds: Credentials; fixtures: Fixtures; procedures: Procedure[] };

async function post(url: URL, p: string, who: Identity, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(p, url), { method: "POST", headers: { ...who.headers, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`fixture ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export async function makeFixtures(url: URL, databaseUrl: string, creds: Credentials): Promise<Fixtures> {
  const algo = creds.services.algorithm;
  const workerId = "hostile-worker";
  const running = (await post(url, "/v1/agl/rollouts", algo, { input: { task: "hostile" }, worker_id: workerId })) as { rollout_id: string; attempt: { attempt_id: string } };
  const spanId = "00000000000000a1";
  await post(url, "/v1/agl/spans", algo, {
    rollout_id: running.rollout_id, attempt_id: running.attempt.attempt_id, sequence_id: 1, trace_id: "0".repeat(31) + "1", span_id: spanId, parent_id: null, name: "agent.run",
    attributes: { "task.id": "hostile" }, start_time: Date.now() / 1000, end_time: Date.now() / 1000 + 1,
  });
  const finished = (await post(url, "/v1/agl/rollouts", algo, { input: "done", worker_id: workerId })) as { rollout_id: string; attempt: { attempt_id: string } };
  await post(url, `/v1/agl/rollouts/${finished.rollout_id}/attempts/${finished.attempt.attempt_id}`, algo, { status: "succeeded" });
  const resources = (await post(url, "/v1/agl/resources", algo, { main: { resource_type: "llm", endpoint: "http://llm.local/v1", model: "m" } })) as { resources_id: string };
  // The reference candidate A: a sealed receipt, pointers and their history for the pointers family.
  const database = await openDatabase(resolveDbTarget(databaseUrl));
  let candidateId: string;
  let gate: GateFixtures;
  try {
    candidateId = (await seedReferenceDemo(database, { only: ["A"], now: new Date() }))[0]!.candidateId;
    const base = { agent: "support-desk", parent: { resources_id: resources.resources_id, version: 1 }, evaluator: { id: "support-desk-evaluator", version: "3" }, candidateId, finishedRolloutId: finished.rollout_id };
    gate = await makeGateFixtures(url, creds, database, base);
  } finally {
    await database.close();
  }
  const target = { email: `hostile-target-${Date.now().toString(36)}@lightgate.example`, password: "quartz-lantern-meadow-7-river" };
  const admin = creds.people.admin;
  const person = await fetch(new URL("/api/trpc/people.create", url), {
    method: "POST",
    headers: { ...admin.headers, origin: creds.origin, "content-type": "application/json" },
    body: JSON.stringify({ json: { name: "Hostile Target", email: target.email, password: target.password, grants: [{ role: "viewer", agent: null }] } }),
  });
  if (!person.ok) throw new Error(`fixture people.create: ${person.status} ${await person.text()}`);
  return { rolloutId: running.rollout_id, attemptId: running.attempt.attempt_id, finishedRolloutId: finished.rollout_id, spanId, resourcesId: resources.resources_id, workerId, agent: "support-desk", candidateId, target, gate };
}

/** Mostly `usual` (so requests get past the door and reach validation), sometimes anybody at all. */
export function identityFor(ctx: SuiteContext, usual: Identity): fc.Arbitrary<Identity> {
  return fc.oneof({ weight: 6, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...everyone(ctx.creds)) });
}

/** Stamps the identity on a case: its headers, its label, and a same-origin Origin for a browser session. */
export function as(who: Identity, c: Omit<HostileCase, "who">, origin?: string): HostileCase {
  return { ...c, who: who.label, headers: { ...(who.cookie && origin ? { origin } : {}), ...who.headers, ...c.headers } };
}
