// The stage-1 declaration Lightgate makes for a version it judges on its own (issue 26), in the gate API's body
// (`POST /v1/gate/receipts`), so `declareReceipt` resolves and pins it exactly as it does for an algorithm.
// Everything comes from what the agent's policy owner published — the exam (`<agent>/held-out`, `<agent>/canary`),
// the evaluator in force, tool contracts, destinations, protected families, the canary boundary, the retry policy —
// and the exact parent: the agent's approved default, or, while it has none, the version the training continued
// from. That part (the basis) is the same whether the receipt is declared ahead of the next version (standing.ts)
// or when a version is claimed; only the algorithm's config and the code revision name the version. What the
// agent lacks is returned as the reason it cannot be judged, never thrown: the page shows it.
import type { z } from "zod";
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
const APPROVERS: DeclareInput["approvers"] = { canary: { actor_ids: [], roles: ["canary_approver", "release_approver"] }, default: { actor_ids: [], roles: ["release_approver"] } };

/** The exact parent: the approved default, else `fallback` (the version the training continued from; null: none). */
export async function parentOf(db: Db, agent: string, fallback: Parent | null): Promise<Parent | null> {
  const approved = await readPointer(db, agent, "approved_default");
  if (approved) return { resourcesId: approved.resourcesId, version: approved.version };
  return fallback;
}

const names = (entries: readonly RegistryRecord[], kind: RegistryRecord["kind"]) => [...new Set(entries.filter((e) => e.kind === kind).map((e) => e.name))].sort();

/** Unexpected retries tolerated: what the agent's retry policy allows beyond the first attempt (none without one). */
function unexpectedRetries(entries: readonly RegistryRecord[]): number {
  const body = latestOf(entries, "retry_policy")?.body as { max_attempts?: unknown } | undefined;
  const max = typeof body?.max_attempts === "number" && Number.isInteger(body.max_attempts) ? body.max_attempts : 1;
  return Math.max(0, Math.min(100, max - 1));
}

/** Everything a declaration pins except what names the version: a standing receipt is bound only while it is unchanged. */
type DeclareInput = z.input<typeof ZDeclareReceipt>;
export type Basis = Omit<DeclareInput, "algorithm" | "code_revision">;
export type Based = { basis: Basis; parent: Parent } | { cannot: string };

/** The basis for the next version of `resourcesId`, or the sentence naming everything the agent lacks for it. */
export async function basisFor(db: Db, agent: string, resourcesId: string, fallbackParent: Parent | null): Promise<Based> {
  const [parent, exams, entries] = await Promise.all([parentOf(db, agent, fallbackParent), publishedGateDatasets(db, agent), currentEntries(db, agent)]);
  const evaluator = evaluatorInForce(entries);
  const boundary = latestOf(entries, "canary_boundary")?.body as CanaryBoundary | undefined;
  const missing: string[] = [];
  if (!parent) missing.push(`no parent: ${agent} has no approved default and ${resourcesId} had no version before this one`);
  if (!exams.heldOut) missing.push(`no held-out dataset published as "${gateDatasetName(agent, "held_out")}"`);
  if (!exams.canary) missing.push(`no canary dataset published as "${gateDatasetName(agent, "canary")}"`);
  if (!evaluator) missing.push(`no evaluator in the registries for ${agent}`);
  if (!boundary) missing.push(`no canary boundary in the registries for ${agent}`);
  if (!parent || !exams.heldOut || !exams.canary || !evaluator || !boundary) return { cannot: `cannot be judged: ${missing.join("; ")}` };
  const protectedFamilies = entries
    .filter((e) => e.kind === "protected_family")
    .map((e) => ({ family: e.name, max_regressions: (e.body as { maxRegressions: number }).maxRegressions }));
  const basis: Basis = {
    agent,
    parent: { resources_id: parent.resourcesId, version: parent.version },
    // The training rollouts that ran this resources id between the declaration and the bind (stage 2's window).
    training_data: { resources_ids: [resourcesId] },
    held_out_dataset: exams.heldOut.id,
    canary_dataset: exams.canary.id,
    evaluator: { id: evaluator.name, version: evaluator.version },
    scope: { tasks: names(entries, "task_distribution").length ? names(entries, "task_distribution") : [agent], tools: names(entries, "tool_contract"), destinations: names(entries, "destination") },
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
    candidate_resources_id: resourcesId,
  };
  return { basis, parent };
}

export type Declarable = { body: DeclareReceiptBody; parent: Parent } | { cannot: string };

/**
 * The declaration body from a basis. `revision` is the content digest standing in for a code revision (Lightgate
 * never sees the learner's code): the judged version's own, or for a standing receipt the version it continues from.
 */
export function declarationBody(based: { basis: Basis; parent: Parent }, algorithmConfig: Record<string, string | number>, revision: string): Declarable {
  const raw = { ...based.basis, algorithm: { name: "agent-lightning (judged by Lightgate)", config: algorithmConfig }, code_revision: revision.replace(/^sha256:/, "").slice(0, 40) };
  // The gate API's own schema: what it refuses from an algorithm (a moving name in the resources id, …) it
  // refuses here, naming the field, and the body is exactly what the HTTP path hands `declareReceipt`.
  const parsed = ZDeclareReceipt.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { cannot: `cannot be judged: ${issue.path.join(".") || "declaration"}: ${issue.message}` };
  }
  return { body: parsed.data, parent: based.parent };
}

/** The declaration for `v` made when it is claimed (no standing receipt fits): the parent falls back to the version before. */
export async function declarationFor(db: Db, v: JudgedVersion): Promise<Declarable> {
  const based = await basisFor(db, v.agent, v.resourcesId, v.version > 1 ? { resourcesId: v.resourcesId, version: v.version - 1 } : null);
  if ("cannot" in based) return based;
  return declarationBody(based, { resources_id: v.resourcesId, version: v.version }, v.digest);
}
