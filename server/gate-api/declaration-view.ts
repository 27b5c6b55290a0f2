// A stored declaration as the API shows it: the request's own snake_case fields, with the pins the server
// resolved (digests, case counts) and what it added (versions in force, who declared it and when).
import type { StoredDeclaration } from "@/server/receipts/declarations";

const SNAKE: ReadonlyMap<string, string> = new Map([
  ["parent.resourceId", "parent.resources_id"],
  ["data.training", "training_data"],
  ["data.heldOut", "held_out_dataset"],
  ["data.canary", "canary_dataset"],
  ["codeRevision", "code_revision"],
  ["expectedEvidence.spanFamilies", "expected_evidence.span_families"],
  ["expectedEvidence.retryBudget", "expected_evidence.retry_budget"],
  ["expectedEvidence.protectedFamilies", "expected_evidence.protected_families"],
  ["expectedEvidence.canaryBoundary", "canary_boundary"],
  ["approvers.canary.actorIds", "approvers.canary.actor_ids"],
  ["approvers.default.actorIds", "approvers.default.actor_ids"],
  ["candidate.resourceId", "candidate_resources_id"],
]);

/** A stage-1 path (`expectedEvidence.canaryBoundary.maxTasks`) as the request spells it (`canary_boundary.max_tasks`). */
export function snakeFieldOf(path: readonly PropertyKey[]): string {
  const dotted = path.map(String).join(".");
  for (const [camel, snake] of SNAKE) if (dotted === camel || dotted.startsWith(`${camel}.`)) return snake + toSnake(dotted.slice(camel.length));
  return toSnake(dotted) || "body";
}

const toSnake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function declarationView(d: StoredDeclaration) {
  const e = d.expectedEvidence;
  const b = e.canaryBoundary;
  const training = d.trainingResourcesIds.length ? { ...d.data.training, resources_ids: d.trainingResourcesIds } : d.data.training;
  return {
    agent: d.agent,
    parent: { resources_id: d.parent.resourceId, version: d.parent.version, digest: d.parent.digest },
    training_data: training,
    held_out_dataset: { dataset_id: d.data.heldOut.id, digest: d.data.heldOut.digest, case_count: d.data.heldOut.caseCount },
    canary_dataset: d.data.canary ? { dataset_id: d.data.canary.id, digest: d.data.canary.digest, case_count: d.data.canary.caseCount } : null,
    evaluator: d.evaluator,
    algorithm: d.algorithm,
    code_revision: d.codeRevision,
    scope: d.scope,
    expected_evidence: {
      span_families: e.spanFamilies,
      retry_budget: { expected_resamples_per_rollout: e.retryBudget.expectedResamplesPerRollout, unexpected_retries: e.retryBudget.unexpectedRetries },
      protected_families: e.protectedFamilies.map((f) => ({ family: f.family, max_regressions: f.maxRegressions })),
    },
    canary_boundary: { max_tasks: b.maxTasks, max_wall_time_seconds: b.maxWallTimeSeconds, allowed_tools: b.allowedTools, max_cost_usd: b.maxCostUsd, allowed_side_effects: b.allowedSideEffects },
    approvers: {
      canary: { actor_ids: d.approvers.canary.actorIds, roles: d.approvers.canary.roles },
      default: { actor_ids: d.approvers.default.actorIds, roles: d.approvers.default.roles },
    },
    candidate_resources_id: d.candidate?.resourceId ?? null,
    versions: d.versions,
    declared_by: d.declaredBy,
    declared_at: d.declaredAt,
  };
}
