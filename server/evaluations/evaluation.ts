// Runs the chosen evaluation protocols for one subject — a family config (trained here, with a learning
// curve on the held-out set) or a stored policy — and derives the seven metrics from what they measured.
// Each protocol's breakdown (per fold, per domain, per adaptation step) is kept for the results page.
import { z } from "zod";
import type { Database } from "@/server/db/client";
import type { Demonstration } from "@/server/datasets/records";
import { deskDomainDistribution, type DeskDomain } from "@/server/environments/support-desk/domains";
import { Rng } from "@/server/environments/prng";
import { badInput } from "@/server/errors";
import { accuracy, adaptSteps, fewShotSplit } from "@/server/trainers/advanced/reptile";
import { evaluatePolicy, lockHeldOutSet, type Evaluation } from "@/server/trainers/evaluate";
import { adversarial, crossValidate, temporalValidation } from "@/server/trainers/evaluation/protocols";
import type { LoadedData } from "@/server/trainers/family";
import { familyOf, startFamily, type FamilyRunInit } from "@/server/trainers/families";
import { imitationItems } from "@/server/trainers/supervised/examples";
import type { Policy } from "@/server/trainers/policy";
import { policyDigest } from "@/server/trainers/policy-resource";
import { deriveMetrics, type MetricRow, type ProtocolResults, type Score } from "./metrics";
import { meanInterval, proportionInterval } from "@/server/trainers/evaluation/intervals";
import { welchTTest } from "@/server/trainers/evaluation/ab-test";
import { CONFIDENCE, heldOutIntervals, pairedDifferenceCi, rateCi, scoreWithCi, type Ci, type ScoreCi } from "./score-intervals";
import { checkFamilyConfig, CODE_REVISION, dataResolver, DESK, DESK_DOMAIN_NAMES, DISTRIBUTION, heldOutSet, heldOutSize, parentFor, storedPolicy, TRAINING_VALIDATION, yieldToEventLoop, ZDataSource, ZFamilyConfig } from "./setup";

export const PROTOCOLS = ["held-out", "k-fold", "temporal", "domain-transfer", "few-shot", "adversarial"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

const domain = z.enum(DESK_DOMAIN_NAMES as [DeskDomain, ...DeskDomain[]]);

export const ZEvaluationRequest = z
  .object({
    name: z.string().trim().min(1, "name must not be empty").max(120, "name must be at most 120 characters").optional(),
    subject: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("resource"), resourcesId: z.string().min(1, "resourcesId must not be empty"), version: z.number().int().min(1, "version must be ≥ 1") }).strict(),
      ZFamilyConfig.extend({ kind: z.literal("family") }).strict(),
    ]),
    data: ZDataSource.default({ kind: "expert", count: 240 }),
    protocols: z
      .array(z.enum(PROTOCOLS))
      .min(1, "protocols: pick at least one")
      .refine((p) => new Set(p).size === p.length, "protocols must not repeat"),
    heldOutSize,
    seed: z.string().min(1, "seed must not be empty").max(100, "seed must be at most 100 characters").default("eval"),
    folds: z.number().int().min(2, "folds must be ≥ 2").max(10, "folds must be ≤ 10").default(5),
    trainShare: z.number().min(0.5, "trainShare must be ≥ 0.5").max(0.95, "trainShare must be ≤ 0.95").default(0.75),
    transferSource: domain.default("self-serve"),
    fewShot: z
      .object({
        domain: domain.default("incident"),
        support: z.number().int().min(1, "support must be ≥ 1").max(200, "support must be ≤ 200").default(10),
        steps: z.number().int().min(1, "steps must be ≥ 1").max(50, "steps must be ≤ 50").default(10),
        learningRate: z.number().positive("learningRate must be > 0").max(5, "learningRate must be ≤ 5").default(0.5),
      })
      .strict()
      .default({ domain: "incident", support: 10, steps: 10, learningRate: 0.5 }),
    adversarial: z
      .object({ noise: z.number().min(0, "noise must be ≥ 0").max(2, "noise must be ≤ 2").default(0.3), flip: z.number().min(0, "flip must be ≥ 0").max(1, "flip must be ≤ 1").default(0.5) })
      .strict()
      .default({ noise: 0.3, flip: 0.5 }),
  })
  .strict();
export type EvaluationRequest = z.output<typeof ZEvaluationRequest>;

export type EvaluationReport = ProtocolResults & {
  subject: { label: string; policyKind: string; policyDigest: string };
  data: { id: string; digest: string; records: number };
  metrics: MetricRow[];
  /** `dropCi`: the paired t interval of clean − perturbed reward over the same tasks. */
  adversarial: { noise: number; flip: number; clean: ScoreCi; perturbed: ScoreCi; drop: number; dropCi: Ci } | null;
};

export type Progress = (fraction: number, note: string) => Promise<void>;

const score = (e: Evaluation): Score => ({ meanReward: e.meanReward, successRate: e.successRate });
const demosOf = (data: LoadedData) => data.records.filter((r): r is Demonstration => r.kind === "demonstration");
const policyOfCandidate = (c: unknown) => (c as { policy: Policy }).policy;

/** Refuses protocol/subject combinations that cannot run, naming the field, before any work starts. */
export function checkEvaluationRequest(r: EvaluationRequest): void {
  if (r.subject.kind === "family") checkFamilyConfig(r.subject, "subject", r.data);
  for (const p of ["k-fold", "temporal"] as const) {
    if (r.protocols.includes(p) && r.subject.kind !== "family") throw badInput("protocols", `${p} trains the family on part of the data: evaluate a family config, not a stored policy`);
    if (r.protocols.includes(p) && r.subject.kind === "family" && !familyOf(r.subject.family).reads.includes("demonstration")) {
      throw badInput("protocols", `${p} scores imitation of held-out demonstrations: ${r.subject.family} does not learn from them`);
    }
  }
}

/** Trains the family step by step, scoring each update on a 60-task slice of the locked set (the learning curve). */
async function trainWithCurve(init: FamilyRunInit, updates: number, onUpdate: (u: number) => Promise<void>) {
  const started = startFamily(init);
  const curveSet = lockHeldOutSet(DESK, DISTRIBUTION, 60, "evaluation-curve");
  const curve: NonNullable<EvaluationReport["learningCurve"]> = [];
  for (let u = 0; u < updates && !started.session.finished; u++) {
    await started.session.step();
    const e = evaluatePolicy(DESK, policyOfCandidate(started.session.candidate()), curveSet);
    curve.push({ update: u + 1, ...score(e) });
    await onUpdate(u + 1);
    await yieldToEventLoop();
  }
  return { policy: policyOfCandidate(started.session.candidate()), curve };
}

export async function runEvaluation(database: Database, r: EvaluationRequest, progress: Progress): Promise<EvaluationReport> {
  checkEvaluationRequest(r);
  const set = heldOutSet(r.heldOutSize);
  const data = (await dataResolver(database, r.data))(`${r.seed}/data`);
  const demos = demosOf(data);
  const needsDemos = r.protocols.filter((p) => p === "k-fold" || p === "temporal" || p === "few-shot");
  if (needsDemos.length && demos.length < 20) throw badInput("data", `${needsDemos.join(", ")} need at least 20 demonstrations; ${data.id} has ${demos.length}`);

  const subject = r.subject;
  const updates = subject.kind === "family" ? subject.updates : 0;
  // Work units, for the progress bar: one per training update, plus one per cheap protocol.
  const total = (subject.kind === "family" ? updates : 0) + (r.protocols.includes("k-fold") ? r.folds * updates : 0) + (r.protocols.includes("temporal") ? updates : 0) + (r.protocols.includes("domain-transfer") && subject.kind === "family" ? updates : 0) + r.protocols.length;
  let done = 0;
  const tick = (units: number, note: string) => {
    done += units;
    return progress(Math.min(0.99, done / total), note);
  };

  const init = (d: LoadedData, seed: string): FamilyRunInit | null =>
    subject.kind === "family" ? { family: subject.family, config: subject.config, parent: parentFor(subject.family), environment: DESK, distribution: DISTRIBUTION, seed, data: d, heldOut: null, validation: TRAINING_VALIDATION, codeRevision: CODE_REVISION } : null;

  let policy: Policy;
  let learningCurve: EvaluationReport["learningCurve"] = null;
  const main = init(data, r.seed);
  if (main) {
    await progress(0, `training ${subject.kind === "family" ? subject.family : ""}`);
    const trained = await trainWithCurve(main, updates, (u) => tick(1, `training: update ${u} of ${updates}`));
    policy = trained.policy;
    learningCurve = trained.curve;
  } else {
    policy = await storedPolicy(database, (subject as { resourcesId: string }).resourcesId, (subject as { version: number }).version);
  }

  const report: EvaluationReport = {
    subject: { label: subject.kind === "family" ? `${subject.family} (${updates} updates)` : `${subject.resourcesId} v${subject.version}`, policyKind: policy.kind, policyDigest: policyDigest(policy) },
    data: { id: data.id, digest: data.digest, records: data.records.length },
    heldOut: { digest: set.digest, cases: set.seeds.length },
    metrics: [],
    learningCurve,
    heldOutResult: null,
    kFold: null,
    temporal: null,
    domainTransfer: null,
    fewShot: null,
    adversarial: null,
  };

  for (const p of r.protocols) {
    await yieldToEventLoop();
    if (p === "held-out") {
      const e = evaluatePolicy(DESK, policy, set);
      report.heldOutResult = { ...scoreWithCi(e), ...heldOutIntervals(e), outcomeRate: e.outcomeRate, protectedCases: e.protectedCases, protectedPassed: e.protectedPassed, byFamily: Object.entries(e.byFamily).map(([family, v]) => ({ family, ...v, ci: rateCi(v.passed, v.cases) })) };
    } else if (p === "k-fold") {
      const cv = await crossValidate({ ...main!, seed: `${r.seed}/k-fold` }, demos, r.folds, updates);
      report.kFold = { k: r.folds, folds: cv.folds.map((accuracy, i) => ({ fold: i + 1, accuracy })), mean: cv.mean, sd: cv.sd, ci: meanInterval(cv.folds, CONFIDENCE).ci };
      await tick(r.folds * updates, "k-fold cross-validation");
    } else if (p === "temporal") {
      report.temporal = await temporalValidation({ ...main!, seed: `${r.seed}/temporal` }, demos, r.trainShare, updates);
      await tick(updates, "temporal validation");
    } else if (p === "domain-transfer") {
      report.domainTransfer = await domainTransfer(r, policy, data, init, (u) => tick(1, `domain transfer: training on ${r.transferSource}, update ${u}`));
    } else if (p === "few-shot") {
      report.fewShot = fewShotWithCurve(policy, demos, r.fewShot, r.seed);
    } else {
      if (policy.kind !== "softmax-linear") throw badInput("protocols", "adversarial perturbation acts on dense features: it needs a softmax-linear policy");
      const a = adversarial(DESK, policy, set, { ...r.adversarial, seed: r.seed });
      const n = a.paired.perturbed.length;
      const perturbed: ScoreCi = { ...a.perturbed, n, meanRewardCi: meanInterval(a.paired.perturbed, CONFIDENCE).ci, successRateCi: proportionInterval(a.paired.perturbedSuccesses, n, CONFIDENCE).ci };
      const gain = pairedDifferenceCi(a.paired.clean, a.paired.perturbed);
      report.adversarial = { ...r.adversarial, clean: scoreWithCi(a.cleanEvaluation), perturbed, drop: a.drop, dropCi: [-gain[1], -gain[0]] };
    }
    await tick(1, `${p} done`);
  }
  report.metrics = deriveMetrics(report);
  return report;
}

/** Scores per domain; a family is trained on the source domain's demonstrations only, a stored policy is scored as it is. */
async function domainTransfer(r: EvaluationRequest, policy: Policy, data: LoadedData, init: (d: LoadedData, seed: string) => FamilyRunInit | null, onUpdate: (u: number) => Promise<void>): Promise<EvaluationReport["domainTransfer"]> {
  let p = policy;
  let trainedOn = "as stored";
  const sourceOnly = { id: `${data.id}/${r.transferSource}`, digest: data.digest, records: demosOf(data).filter((d) => d.domain === r.transferSource) };
  const i = init(sourceOnly, `${r.seed}/transfer`);
  if (i && r.subject.kind === "family") {
    if (sourceOnly.records.length === 0) throw badInput("transferSource", `the data has no ${r.transferSource} demonstrations`);
    p = (await trainWithCurve(i, r.subject.updates, onUpdate)).policy;
    trainedOn = `${sourceOnly.records.length} ${r.transferSource} demonstrations`;
  }
  const size = Math.max(20, Math.round(r.heldOutSize / 3));
  const evaluations = DESK_DOMAIN_NAMES.map((d) => ({ domain: d, e: evaluatePolicy(DESK, p, lockHeldOutSet(DESK, deskDomainDistribution(DISTRIBUTION, d), size, `transfer-${d}`)) }));
  const scores = evaluations.map(({ domain, e }) => ({ domain, ...scoreWithCi(e) }));
  const base = scores.find((s) => s.domain === r.transferSource)!.meanReward;
  const rewards = (own: boolean) => evaluations.filter((x) => (x.domain === r.transferSource) === own).flatMap((x) => x.e.perTask.map((t) => t.reward));
  // The gap's interval: source-domain tasks against the other domains' tasks (independent sets).
  const gapCi = welchTTest(rewards(false), rewards(true), CONFIDENCE).ci;
  return { source: r.transferSource, trainedOn, domains: scores.map((s) => ({ ...s, gap: base - s.meanReward })), gapCi };
}

/** Plain SGD on a few demonstrations of one domain, query accuracy after each step, and what the other domains kept. */
function fewShotWithCurve(policy: Policy, demos: readonly Demonstration[], o: EvaluationRequest["fewShot"], seed: string): EvaluationReport["fewShot"] {
  if (policy.kind !== "softmax-linear") throw badInput("protocols", "few-shot adaptation takes gradient steps on weights: it needs a softmax-linear policy");
  const target = demos.filter((d) => d.domain === o.domain);
  if (target.length <= o.support) throw badInput("fewShot.support", `${o.domain} has ${target.length} demonstrations: the support set must leave some to query`);
  const { support, query } = fewShotSplit(DESK, target, o.support);
  const others = imitationItems(DESK, demos.filter((d) => d.domain !== o.domain), "uniform");
  const nA = DESK.actions.length;
  const rng = Rng.from(`${seed}/few-shot`);
  let w: Float64Array = Float64Array.from(policy.weights);
  const curve = [{ step: 0, accuracy: accuracy(w, query, nA) }];
  const before = accuracy(w, others, nA);
  for (let s = 1; s <= o.steps; s++) {
    w = adaptSteps(w, support, nA, 1, o.learningRate, 32, rng);
    curve.push({ step: s, accuracy: accuracy(w, query, nA) });
  }
  return { domain: o.domain, support: o.support, curve, otherDomainsBefore: before, otherDomainsAfter: accuracy(w, others, nA) };
}
