// Shared set-up for the learning-family tests: the support desk, data sets made by the scripted expert
// (cached per test file), a receipt context, and a runner that goes through the family registry.
import type { DatasetRecord, Demonstration } from "@/server/datasets/records";
import { digestOf, type Digest } from "@/server/digest";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { deskDomainDistribution, deskDomainOfTask, type DeskDomain } from "@/server/environments/support-desk/domains";
import { deskExpert } from "@/server/environments/support-desk/expert";
import { ZStage1 } from "@/server/gate/receipt/stage1";
import { collectDemonstrations } from "@/server/trainers/data-sources";
import { evaluatePolicy, lockHeldOutSet, lockValidationSet, pinOf, type HeldOutSet } from "@/server/trainers/evaluate";
import type { FamilyName, LoadedData } from "@/server/trainers/family";
import { checkpointFamily, continueFamily, restoreFamily, runFamily, startFamily, type FamilyRunResult } from "@/server/trainers/families";
import { initialPolicy, type Policy, type SoftmaxLinearPolicy } from "@/server/trainers/policy";
import { stage1Receipt } from "@/server/trainers/stage1";

export const desk = createSupportDesk();
export const V2 = findDistribution("v2");
export const GATE = lockHeldOutSet(desk, "v2", 300, "gate");
/** The trainers' own validation split (what online learning monitors): never the exam above. */
export const VALIDATION = lockValidationSet(desk, "v2", 200, "families");
export const UNIFORM = initialPolicy("softmax-linear", desk) as SoftmaxLinearPolicy;
export const CODE_REVISION = "3f2a9c1d0b7e";

/** A loaded snapshot for tests (its digest is over the sorted records, as the datasets module computes it). */
export function snapshot(records: readonly DatasetRecord[], id = "ds-test"): LoadedData {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { id, digest: digestOf(sorted) as Digest, records: sorted };
}

/** Demonstrations by a good expert (slip 0.03) and a weak one (slip 0.4, a quarter of episodes), domains labelled. */
export function expertDemos(count: number, seed = "demos", slip = 0.03, distribution = V2): Demonstration[] {
  return collectDemonstrations(desk, [
    { id: "expert", policyFor: (t) => deskExpert(t, slip), share: 3 },
    { id: "novice", policyFor: (t) => deskExpert(t, 0.4), share: 1 },
  ], { distribution, count, seed, domainOf: deskDomainOfTask, startAt: "2026-03-01T00:00:00.000Z" });
}

export function domainDemos(domain: DeskDomain, count: number, seed: string, startAt: string, slip = 0.03): Demonstration[] {
  return collectDemonstrations(desk, [{ id: "expert", policyFor: (t) => deskExpert(t, slip) }], { distribution: deskDomainDistribution(V2, domain), count, seed, domainOf: deskDomainOfTask, startAt });
}

/** `heldOut` is the exam the stage 1 pins (the learner gets its pin only); `validation` what the family may read. */
export type RunSpec = { family: FamilyName; config?: unknown; parent?: unknown; data?: LoadedData | null; updates: number; seed?: string; heldOut?: HeldOutSet | null; validation?: HeldOutSet | null; distribution?: typeof V2 };

export function runInit(s: RunSpec) {
  return {
    family: s.family,
    config: s.config ?? {},
    parent: s.parent ?? UNIFORM,
    environment: desk,
    distribution: s.distribution ?? V2,
    seed: s.seed ?? "seed-1",
    data: s.data ?? null,
    heldOut: s.heldOut === null ? null : pinOf(s.heldOut ?? GATE),
    validation: s.validation === undefined ? VALIDATION : s.validation,
    codeRevision: CODE_REVISION,
  };
}

export function run(s: RunSpec): Promise<FamilyRunResult> {
  return runFamily(runInit(s), s.updates);
}

export function policyOf(r: FamilyRunResult): Policy {
  return (r.candidate as unknown as { policy: Policy }).policy;
}

export function gateScore(policy: Policy, set: HeldOutSet = GATE) {
  return evaluatePolicy(desk, policy, set);
}

/**
 * The learned distribution itself, scored sampling at T = 1. Method comparisons measure this: trainers publish
 * greedy, and acting on the best action can hide a difference in what two methods learned (issue 28).
 */
export function learnedScore(policy: Policy, set: HeldOutSet = GATE) {
  return evaluatePolicy(desk, { ...policy, serving: { mode: "sample", temperature: 1 } }, set);
}

/** Stage 1 of the candidate's receipt through the gate's own schema. */
export function receiptOf(r: FamilyRunResult) {
  const stage1 = stage1Receipt(r.facts, {
    agent: "support-desk",
    candidate: { resourceId: "rs-7c1e0a9b4d2f", version: 1, digest: r.candidate.digest },
    parent: { resourceId: "rs-2b8d4f6a1c3e", version: 3, digest: r.facts.parent.digest },
    evaluator: { id: "support-desk-evaluator", version: "1", digest: digestOf({ evaluator: "support-desk", weights: "default" }) },
    approvers: { canary: { actorIds: [], roles: ["canary_approver"] }, default: { actorIds: [], roles: ["release_approver"] } },
    modelServer: "lightgate-policy-server@0.1.0",
    destinations: ["support-desk:tickets"],
    declaredBy: "svc-trainer",
    declaredAt: "2026-03-02T09:00:00.000Z",
  });
  return ZStage1.parse(stage1);
}

/** Runs n + n straight and n → checkpoint → JSON → restore → n; returns both candidates' digests. */
export async function resumeDigests(s: RunSpec): Promise<[string, string]> {
  const straight = await run({ ...s, updates: 2 * s.updates });
  const first = startFamily(runInit(s));
  await continueFamily(first, s.updates);
  const saved = JSON.parse(JSON.stringify(checkpointFamily(first)));
  const i = runInit(s);
  const resumed = restoreFamily(saved, { environment: i.environment, distribution: i.distribution, seed: "ignored", data: i.data, heldOut: i.heldOut, validation: i.validation });
  const rest = await continueFamily(resumed, s.updates);
  return [straight.candidate.digest, rest.candidate.digest];
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
export { UNIFORM as uniformParent, initialPolicy };
