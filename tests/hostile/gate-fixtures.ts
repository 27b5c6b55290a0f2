// Real objects for the gate API's hostile cases, made through the API itself (the policy key publishes the
// exams, the algorithm key writes a candidate version and declares a receipt) and — for what only the
// orchestrator writes — a gate run with one canary task straight into the database.
import type { Database } from "@/server/db/client";
import type { Credentials, Identity } from "./credentials";

export type GateFixtures = { heldOut: string; canary: string; receiptId: string; gateRunId: string; canaryRolloutId: string; candidateResourcesId: string; parent: { resources_id: string; version: number }; evaluator: { id: string; version: string }; agent: string };

async function post(url: URL, p: string, who: Identity, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(p, url), { method: "POST", headers: { ...who.headers, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`fixture ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

export const datasetBody = (kind: "held_out" | "canary", tag: string) => ({
  name: `hostile ${kind} ${tag}`,
  kind,
  cases: [
    { id: `${tag}-1`, input: { q: "where is my order" }, expected: { a: "tracking" } },
    { id: `${tag}-2`, input: "two", family: "refunds", protected: true },
  ],
});

export function declarationBody(f: Omit<GateFixtures, "receiptId" | "gateRunId" | "canaryRolloutId" | "candidateResourcesId">) {
  return {
    agent: f.agent,
    parent: f.parent,
    training_data: { resources_ids: ["hostile-training"] },
    held_out_dataset: f.heldOut,
    canary_dataset: f.canary,
    evaluator: f.evaluator,
    algorithm: { name: "apo", config: { beam_width: 2 } },
    code_revision: "0a1b2c3d",
    scope: { tasks: ["faq"], tools: ["search_kb"], destinations: [] },
    expected_evidence: { span_families: ["reward"], retry_budget: { expected_resamples_per_rollout: 0, unexpected_retries: 0 }, protected_families: [{ family: "refunds", max_regressions: 0 }] },
    canary_boundary: { max_tasks: 2, max_wall_time_seconds: 60, allowed_tools: ["search_kb"], max_cost_usd: 0.5, allowed_side_effects: [] },
    approvers: { canary: { actor_ids: [], roles: ["canary_approver"] }, default: { actor_ids: [], roles: ["release_approver"] } },
  };
}

export async function makeGateFixtures(
  url: URL,
  creds: Pick<Credentials, "services">,
  database: Database,
  base: { agent: string; parent: { resources_id: string; version: number }; evaluator: { id: string; version: string }; candidateId: string; finishedRolloutId: string },
): Promise<GateFixtures> {
  const { policy, algorithm } = creds.services;
  const heldOut = (await post(url, "/v1/gate/datasets", policy, datasetBody("held_out", "h"))).dataset_id as string;
  const canary = (await post(url, "/v1/gate/datasets", policy, datasetBody("canary", "c"))).dataset_id as string;
  const candidateResourcesId = (await post(url, "/v1/agl/resources", algorithm, { prompt: { resource_type: "prompt_template", template: "hostile {q}", engine: "f-string" } })).resources_id as string;
  const f = { agent: base.agent, parent: base.parent, evaluator: base.evaluator, heldOut, canary };
  const receiptId = (await post(url, "/v1/gate/receipts", algorithm, declarationBody(f))).receipt_id as string;
  const gateRunId = "gr-hostile-canary";
  await database.db.gateRun.create({ data: { id: gateRunId, candidateId: base.candidateId, kind: "admission", status: "running", phase: "canary", requestedById: "hostile-suite", requestedAt: new Date() } });
  await database.db.gateRunTask.create({ data: { rolloutId: base.finishedRolloutId, gateRunId, phase: "canary", caseId: "c-1", resourcesId: "lg-pin-0000000000000000", enqueuedAt: new Date(), state: "pending" } });
  return { ...f, receiptId, gateRunId, canaryRolloutId: base.finishedRolloutId, candidateResourcesId };
}
