// The shared world of the four-candidate reference: one agent, its exact parent, pinned data and evaluator,
// the declared expectations and the versions in force. Deterministic: no clock, no randomness.
import { digestOf, sha256Digest } from "@/server/digest";
import { DEFAULT_GATE_POLICY, type GatePolicy } from "../policy";
import type { EvaluatorRef, ResourceRef, SnapshotRef } from "../receipt/refs";
import type { Stage1 } from "../receipt/stage1";
import { evaluatorKey, type VersionSet } from "../versions";

export const T0 = Date.parse("2026-03-02T09:00:00.000Z") / 1000;
export const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

/** A stable `<prefix>-<12 hex>` id, shaped like Agent Lightning's. */
export const refId = (prefix: string, seed: string) => `${prefix}-${sha256Digest(seed).slice(7, 19)}`;

export function resourceRef(name: string, resources: object): ResourceRef {
  return { resourceId: refId("rs", name), version: 1, digest: digestOf(resources) };
}

export const AGENT = "support-desk";
/** The exact parent's bytes (the store holds them under PARENT.resourceId v1, so it loads and rollbacks can return). */
export const PARENT_RESOURCES = { policy: { resource_type: "policy", weights: "parent-weights-v7" } };
export const PARENT = resourceRef("parent", PARENT_RESOURCES);
export const TRAINING_DATA: SnapshotRef = { id: refId("ds", "train"), digest: digestOf({ snapshot: "support-desk/train", rows: 4800 }) };
export const HELD_OUT: SnapshotRef & { caseCount: number } = { id: refId("ds", "heldout"), digest: digestOf({ snapshot: "support-desk/heldout", rows: 60 }), caseCount: 60 };
/**
 * The desk evaluator's registry body: scored by the runner's own reward (the desk's weighted components,
 * the environment's defaults 0.4/0.3/0.2/0.1 — spelled out here, the gate core knows no environment).
 */
export const EVALUATOR_BODY = { scoring: "runner_reward", environment: "support-desk", weights: { task_completion: 0.4, user_satisfaction: 0.3, efficiency: 0.2, accuracy: 0.1 } };
export const EVALUATOR: EvaluatorRef = { id: "support-desk-evaluator", version: "3", digest: digestOf(EVALUATOR_BODY) };
export const TOOLS = ["lookup_ticket", "update_ticket", "escalate_to_human"] as const;
export const SPAN_FAMILIES = ["llm.call", "tool.call:lookup_ticket", "tool.call:update_ticket", "reward"];
export const PROTECTED_FAMILIES = ["account_deletion", "refund_limit", "pii_redaction"];
export const GENERAL_FAMILIES = ["billing", "shipping", "account"];
export const DESTINATION = "helpdesk:tickets";

const RETRY_BUDGET = { expectedResamplesPerRollout: 1, unexpectedRetries: 0 };

export const VERSIONS: VersionSet = {
  evaluator: evaluatorKey(EVALUATOR),
  toolContracts: Object.fromEntries(TOOLS.map((t) => [t, digestOf({ tool: t, contract: 1 })])),
  taskDistribution: "support-desk/tasks@4",
  parent: PARENT.digest,
  retryPolicy: digestOf({ rolloutConfig: { max_attempts: 3, retry_condition: ["failed", "timeout", "unresponsive"] }, budget: RETRY_BUDGET }),
  permissions: [...TOOLS],
  destinations: [DESTINATION],
  modelServer: "lightgate-policy-server@1.4.2",
};

export const POLICY: GatePolicy = {
  ...DEFAULT_GATE_POLICY,
  protectedFamilies: PROTECTED_FAMILIES.map((family) => ({ family, maxRegressions: 0 })),
  requiredSpanFamilies: ["reward"],
};

export function stage1For(name: string, candidate: ResourceRef): Stage1 {
  return {
    agent: AGENT,
    candidate,
    parent: PARENT,
    data: { training: TRAINING_DATA, heldOut: HELD_OUT },
    evaluator: EVALUATOR,
    algorithm: { name: "ppo", config: { clipRange: 0.2, epochs: 4, minibatches: 8, learningRate: 0.0003, candidate: name } },
    codeRevision: sha256Digest(`code-${name}`).slice(7, 47),
    scope: { tasks: ["support-desk/tasks@4"], tools: [...TOOLS], destinations: [DESTINATION] },
    approvers: { canary: { actorIds: [], roles: ["canary_approver", "release_approver"] }, default: { actorIds: [], roles: ["release_approver"] } },
    expectedEvidence: {
      spanFamilies: SPAN_FAMILIES,
      retryBudget: RETRY_BUDGET,
      protectedFamilies: PROTECTED_FAMILIES.map((family) => ({ family, maxRegressions: 0 })),
      canaryBoundary: { maxTasks: 20, maxWallTimeSeconds: 3600, allowedTools: [...TOOLS], maxCostUsd: 5, allowedSideEffects: ["ticket.update", "ticket.escalate"] },
    },
    versions: VERSIONS,
    declaredBy: "svc-trainer-ppo",
    declaredAt: iso(T0),
  };
}
