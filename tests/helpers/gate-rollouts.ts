// The rollouts the gate asks runners for, enqueued into a real store exactly as the contract in
// ISSUE13-DESIGN / the README names them: the case's input verbatim, mode "test", a pinned resources id,
// and the lightgate.* metadata. The candidate is a policy trained on expert demonstrations (with exploration
// left on, which a gate rollout must switch off); the parent is the untrained one.
import type { LightningStore } from "@/server/store";
import type { JsonObject } from "@/server/store/types";
import type { GateCase } from "@/server/desk/gate-datasets";
import { toPolicyResource } from "@/server/trainers/policy-resource";
import { withEpsilon, type Policy } from "@/server/trainers/policy";
import { expertDemos, policyOf, run, snapshot, UNIFORM } from "./families";

export const CANDIDATE_PIN = "lg-pin-00c0ffee00c0ffee";
export const PARENT_PIN = "lg-pin-00badcafe0badcaf";
export const EVALUATOR = "support-desk-evaluator@3";
/** Not the defaults, so a score computed with them shows the runner used the pinned evaluator's weights. */
export const SPEC = { scoring: "runner_reward", environment: "support-desk", weights: { task_completion: 1, user_satisfaction: 0, efficiency: 0.5, accuracy: 0 } };

let trained: Policy | null = null;
export async function candidatePolicy(): Promise<Policy> {
  trained ??= withEpsilon(policyOf(await run({ family: "supervised", data: snapshot(expertDemos(300)), updates: 10, heldOut: null })), 0.4);
  return trained;
}
export const parentPolicy = (): Policy => UNIFORM;

let strong: Policy | null = null;
/** A candidate good enough to pass the whole gate (every canary outcome right): more demonstrations, more epochs. */
export async function strongCandidatePolicy(): Promise<Policy> {
  strong ??= policyOf(await run({ family: "supervised", data: snapshot(expertDemos(1500)), updates: 30, heldOut: null }));
  return strong;
}

export async function writePins(store: LightningStore) {
  await store.updateResources(CANDIDATE_PIN, { policy: toPolicyResource(await candidatePolicy()) as unknown as JsonObject });
  await store.updateResources(PARENT_PIN, { policy: toPolicyResource(parentPolicy()) as unknown as JsonObject });
}

export function gateMetadata(phase: string, caseId: string, extra: JsonObject = {}): JsonObject {
  return {
    "lightgate.gate_run": "gr-test0001",
    "lightgate.phase": phase,
    "lightgate.case": caseId,
    "lightgate.receipt": "cand-test0001",
    "lightgate.evaluator": EVALUATOR,
    "lightgate.evaluator_spec": SPEC,
    ...extra,
  };
}

export type Enqueued = { rolloutId: string; phase: string; side: string | null; caseId: string };

/** One rollout per (case, side) for the locked gate, one per canary case, and `probes` rollback probes. */
export async function enqueueGate(store: LightningStore, cases: { heldOut: GateCase[]; canary: GateCase[]; probes: number }): Promise<Enqueued[]> {
  const reqs: { req: Parameters<LightningStore["enqueueRollouts"]>[0][number]; meta: Omit<Enqueued, "rolloutId"> }[] = [];
  for (const c of cases.heldOut) {
    for (const side of ["candidate", "parent"] as const) {
      const resources_id = side === "candidate" ? CANDIDATE_PIN : PARENT_PIN;
      reqs.push({ req: { input: c.input as JsonObject, mode: "test", resources_id, metadata: gateMetadata("locked_gate", c.id, { "lightgate.side": side }) }, meta: { phase: "locked_gate", side, caseId: c.id } });
    }
  }
  for (const c of cases.canary) reqs.push({ req: { input: c.input as JsonObject, mode: "test", resources_id: CANDIDATE_PIN, metadata: gateMetadata("canary", c.id) }, meta: { phase: "canary", side: null, caseId: c.id } });
  for (const c of cases.canary.slice(0, cases.probes)) reqs.push({ req: { input: c.input as JsonObject, mode: "test", resources_id: PARENT_PIN, metadata: gateMetadata("rollback", c.id) }, meta: { phase: "rollback", side: null, caseId: c.id } });
  const rollouts = await store.enqueueRollouts(reqs.map((r) => r.req));
  return rollouts.map((r, i) => ({ rolloutId: r.rollout_id, ...reqs[i]!.meta }));
}

export async function allFinished(store: LightningStore, ids: readonly string[]): Promise<boolean> {
  const done = (await store.queryRollouts({ rollout_id_in: [...ids], status_in: ["succeeded", "failed", "cancelled"], limit: -1 })).items;
  return done.length === ids.length;
}
