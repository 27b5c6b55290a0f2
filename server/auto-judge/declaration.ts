// The stage-1 declaration Lightgate makes for a version it judges on its own (issue 26), in the gate API's body
// (`POST /v1/gate/receipts`), so `declareReceipt` resolves and pins it exactly as it does for an algorithm.
// Everything comes from what the agent's policy owner published — the exam (`<agent>/held-out`, `<agent>/canary`),
// the evaluator in force, tool contracts, destinations, protected families, the canary boundary, the retry policy —
// and the exact parent: the agent's approved default, or the version before this one while it has none. What the
// agent lacks is returned as the reason it cannot be judged, never thrown: the page shows it.
import type { Db } from "@/server/db/client";
import { readPointer } from "@/server/candidates/pointers";
import { ZDeclareReceipt, type DeclareReceiptBody } from "@/server/gate-api/declaration.schema";
import { publishedGateDatasets, gateDatasetName } from "@/server/receipts/gate-datasets";
import { currentEntries, type RegistryRecord } from "@/server/receipts/registries";
import { evaluatorInForce, latestOf } from "@/server/receipts/versions";
import type { CanaryBoundary } from "@/server/gate/receipt/stage1";

export type JudgedVersion = { agent: string; resourcesId: string; version: number; digest: string };
export type Parent = { resourcesId: string; version: number };

/** Who may approve what Lightgate declares: the roles that hold each step's scope (as the trainer's candidates name them). */
const APPROVERS = { canary: { actor_ids: [], roles: ["canary_approver", "release_approver"] }, default: { actor_ids: [], roles: ["release_approver"] } } as const;

/** The exact parent: the approved default, else the version just before (null for a first version). */
export async function parentOf(db: Db, v: JudgedVersion): Promise<Parent | null> {
  const approved = await readPointer(db, v.agent, "approved_default");
  if (approved) return { resourcesId: approved.resourcesId, version: approved.version };
  return v.version > 1 ? { resourcesId: v.resourcesId, version: v.version - 1 } : null;
}

const names = (entries: readonly RegistryRecord[], kind: RegistryRecord["kind"]) => [...new Set(entries.filter((e) => e.kind === kind).map((e) => e.name))].sort();

/** Unexpected retries tolerated: what the agent's retry policy allows beyond the first attempt (none without one). */
function unexpectedRetries(entries: readonly RegistryRecord[]): number {
  const body = latestOf(entries, "retry_policy")?.body as { max_attempts?: unknown } | undefined;
  const max = typeof body?.max_attempts === "number" && Number.isInteger(body.max_attempts) ? body.max_attempts : 1;
  return Math.max(0, Math.min(100, max - 1));
}

export type Declarable = { body: DeclareReceiptBody; parent: Parent } | { cannot: string };

/** The declaration body for `v`, or the sentence naming everything the agent lacks for it. */
export async function declarationFor(db: Db, v: JudgedVersion): Promise<Declarable> {
  const [parent, exams, entries] = await Promise.all([parentOf(db, v), publishedGateDatasets(db, v.agent), currentEntries(db, v.agent)]);
  const evaluator = evaluatorInForce(entries);
  const boundary = latestOf(entries, "canary_boundary")?.body as CanaryBoundary | undefined;
  const missing: string[] = [];
  if (!parent) missing.push(`no parent: ${v.agent} has no approved default and this is the first version of ${v.resourcesId}`);
  if (!exams.heldOut) missing.push(`no held-out dataset published as "${gateDatasetName(v.agent, "held_out")}"`);
  if (!exams.canary) missing.push(`no canary dataset published as "${gateDatasetName(v.agent, "canary")}"`);
  if (!evaluator) missing.push(`no evaluator in the registries for ${v.agent}`);
  if (!boundary) missing.push(`no canary boundary in the registries for ${v.agent}`);
  if (!parent || !exams.heldOut || !exams.canary || !evaluator || !boundary) return { cannot: `cannot be judged: ${missing.join("; ")}` };
  const protectedFamilies = entries
    .filter((e) => e.kind === "protected_family")
    .map((e) => ({ family: e.name, max_regressions: (e.body as { maxRegressions: number }).maxRegressions }));
  const raw = {
    agent: v.agent,
    parent: { resources_id: parent.resourcesId, version: parent.version },
    // The training rollouts that ran this resources id (stage 2 admits those started between declaration and bind).
    training_data: { resources_ids: [v.resourcesId] },
    held_out_dataset: exams.heldOut.id,
    canary_dataset: exams.canary.id,
    evaluator: { id: evaluator.name, version: evaluator.version },
    algorithm: { name: "agent-lightning (judged by Lightgate)", config: { resources_id: v.resourcesId, version: v.version } },
    // Lightgate never sees the learner's code: the candidate's own content digest stands in for a revision.
    code_revision: v.digest.replace(/^sha256:/, "").slice(0, 40),
    scope: { tasks: names(entries, "task_distribution").length ? names(entries, "task_distribution") : [v.agent], tools: names(entries, "tool_contract"), destinations: names(entries, "destination") },
    expected_evidence: {
      span_families: ["reward"],
      retry_budget: { expected_resamples_per_rollout: 0, unexpected_retries: unexpectedRetries(entries) },
      protected_families: protectedFamilies,
    },
    canary_boundary: {
      max_tasks: boundary.maxTasks,
      max_wall_time_seconds: boundary.maxWallTimeSeconds,
      allowed_tools: boundary.allowedTools,
      max_cost_usd: boundary.maxCostUsd,
      allowed_side_effects: boundary.allowedSideEffects,
    },
    approvers: APPROVERS,
    candidate_resources_id: v.resourcesId,
  };
  // The gate API's own schema: what it refuses from an algorithm (a moving name in the resources id, …) it
  // refuses here, naming the field, and the body is exactly what the HTTP path hands `declareReceipt`.
  const parsed = ZDeclareReceipt.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { cannot: `cannot be judged: ${issue.path.join(".") || "declaration"}: ${issue.message}` };
  }
  return { body: parsed.data, parent };
}
