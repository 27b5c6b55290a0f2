// Evaluation protocols: held-out, k-fold cross-validation, temporal (train on the past, test on the
// future), domain transfer, few-shot adaptation, and adversarial perturbation of task features. Each
// returns plain figures; the held-out and adversarial ones run the environment, the others score
// imitation accuracy on demonstrations a family did not train on.
import type { Demonstration } from "@/server/datasets/records";
import { simulateEpisode } from "@/server/environments/episode";
import { Rng, streamSeed } from "@/server/environments/prng";
import { resolveDistribution } from "@/server/environments/distributions";
import { DEFAULT_REWARD_WEIGHTS, weightedReward } from "@/server/environments/types";
import { accuracy, adaptSteps, fewShotSplit } from "../advanced/reptile";
import { evaluatePolicy, type Evaluation, type HeldOutSet } from "../evaluate";
import type { AnyEnvironment, FamilyName, LoadedData } from "../family";
import { runFamily, type FamilyRunInit } from "../families";
import { actingPolicy, type Policy, type SoftmaxLinearPolicy } from "../policy";
import { imitationItems } from "../supervised/examples";
import { gaussian } from "../supervised/fitter";
import { digestOf, type Digest } from "@/server/digest";
import { stability } from "./metrics";

export function heldOut(env: AnyEnvironment, policy: Policy, set: HeldOutSet): Evaluation {
  return evaluatePolicy(env, policy, set);
}

/** k folds of demonstrations by id (deterministic for the seed), each fold once the test set. */
export function kFolds(demos: readonly Demonstration[], k: number, seed: string): Demonstration[][] {
  if (!Number.isInteger(k) || k < 2 || k > demos.length) throw new Error(`k must be a whole number from 2 to ${demos.length}`);
  const order = Rng.from(`${seed}/k-fold`).shuffle([...demos].sort((a, b) => (a.id < b.id ? -1 : 1)));
  return Array.from({ length: k }, (_, f) => order.filter((_, i) => i % k === f));
}

const dataOf = (records: readonly Demonstration[], label: string): LoadedData => {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { id: `ds-${label}`, digest: digestOf(sorted) as Digest, records: sorted };
};

const weightsOf = (r: { candidate: unknown }) => Float64Array.from(((r.candidate as { policy: SoftmaxLinearPolicy }).policy).weights);

/** Imitation accuracy on the held-out fold of a family trained on the other k − 1 folds. */
export async function crossValidate(init: Omit<FamilyRunInit, "data"> & { family: FamilyName }, demos: readonly Demonstration[], k: number, updates: number) {
  const folds = kFolds(demos, k, init.seed);
  const scores: number[] = [];
  for (let f = 0; f < k; f++) {
    const train = folds.flatMap((fold, i) => (i === f ? [] : fold));
    const r = await runFamily({ ...init, seed: `${init.seed}/fold-${f}`, data: dataOf(train, `fold-${f}`) }, updates);
    scores.push(accuracy(weightsOf(r), imitationItems(init.environment, folds[f]!, "uniform"), init.environment.actions.length));
  }
  return { folds: scores, ...stability(scores) };
}

/** Trains on the demonstrations recorded before the cut and tests on the ones after it. */
export async function temporalValidation(init: Omit<FamilyRunInit, "data">, demos: readonly Demonstration[], trainShare: number, updates: number) {
  for (const d of demos) if (!d.recordedAt) throw new Error(`temporal validation orders by recordedAt; demonstration ${d.id} has none`);
  const ordered = [...demos].sort((a, b) => a.recordedAt!.localeCompare(b.recordedAt!) || (a.id < b.id ? -1 : 1));
  const cut = Math.round(ordered.length * trainShare);
  if (cut < 1 || cut >= ordered.length) throw new Error("trainShare must leave demonstrations on both sides of the cut");
  const r = await runFamily({ ...init, data: dataOf(ordered.slice(0, cut), "past") }, updates);
  const env = init.environment;
  return { cutAt: ordered[cut]!.recordedAt!, past: accuracy(weightsOf(r), imitationItems(env, ordered.slice(0, cut), "uniform"), env.actions.length), future: accuracy(weightsOf(r), imitationItems(env, ordered.slice(cut), "uniform"), env.actions.length) };
}

/** Scores a policy on held-out sets of several domains, and each against the source domain's score. */
export function domainTransfer(env: AnyEnvironment, policy: Policy, source: HeldOutSet, targets: Record<string, HeldOutSet>) {
  const base = evaluatePolicy(env, policy, source).meanReward;
  return { source: base, targets: Object.fromEntries(Object.entries(targets).map(([d, set]) => { const v = evaluatePolicy(env, policy, set).meanReward; return [d, { meanReward: v, transferGap: base - v }]; })) };
}

/** k plain SGD steps on `support` demonstrations from the given weights, then accuracy on the query ones. */
export function fewShot(env: AnyEnvironment, weights: ArrayLike<number>, demos: readonly Demonstration[], o: { support: number; steps: number; learningRate: number; batch?: number; seed: string }) {
  const { support, query } = fewShotSplit(env, demos, o.support);
  const nA = env.actions.length;
  const w = Float64Array.from(weights);
  const adapted = adaptSteps(w, support, nA, o.steps, o.learningRate, o.batch ?? 32, Rng.from(`${o.seed}/few-shot`));
  return { before: accuracy(w, query, nA), after: accuracy(adapted, query, nA) };
}

/**
 * Robustness to perturbed task features: the policy sees each observation with Gaussian noise (σ) on
 * every feature and, with probability `flip`, one active one-hot feature moved to another index of the
 * same name prefix (e.g. urgency:low → urgency:high); the environment keeps the true state.
 */
export function adversarial(env: AnyEnvironment, policy: Policy, set: HeldOutSet, o: { noise: number; flip: number; seed: string }) {
  if (policy.kind !== "softmax-linear") throw new Error("adversarial perturbation acts on dense features: it needs a softmax-linear policy");
  const dist = resolveDistribution(env.distributions, set.distribution.digest);
  if (!dist) throw new Error(`task distribution ${set.distribution.version} is not available`);
  const groups = new Map<string, number[]>();
  env.featureNames.forEach((n, i) => {
    const m = /^([a-z_]+):[^*]+$/.exec(n);
    if (m) groups.set(m[1]!, [...(groups.get(m[1]!) ?? []), i]);
  });
  const clean = evaluatePolicy(env, policy, set);
  const inner = actingPolicy(policy, "serve");
  const rng = Rng.from(`${o.seed}/adversarial`);
  const perturbed = {
    probabilities(obs: { features: Float64Array; key: string }, out: Float64Array) {
      const x = Float64Array.from(obs.features);
      if (rng.next() < o.flip) {
        const active = [...groups.values()].filter((g) => g.length > 1 && g.some((i) => x[i] === 1));
        const g = active[rng.int(active.length)];
        if (g) {
          const on = g.find((i) => x[i] === 1)!;
          const others = g.filter((i) => i !== on);
          x[on] = 0;
          x[others[rng.int(others.length)]!] = 1;
        }
      }
      if (o.noise > 0) for (let i = 0; i < x.length; i++) x[i] = x[i]! + o.noise * gaussian(rng);
      inner.probabilities({ features: x, key: obs.key }, out);
    },
  };
  const rewards: number[] = [];
  let success = 0;
  for (const seed of set.seeds) {
    const task = env.sampleTask(dist, seed);
    const ep = simulateEpisode(env, perturbed, task, { episodeKey: `adv/${seed}`, seed: streamSeed("eval", seed), options: set.options });
    rewards.push(weightedReward(ep.totals, DEFAULT_REWARD_WEIGHTS));
    if (ep.outcomeReached && ep.protected?.pass !== false) success++;
  }
  const n = set.seeds.length;
  const reward = rewards.reduce((a, b) => a + b, 0);
  // Per task, clean and perturbed (same order): the paired data for an interval of the drop.
  const paired = { clean: clean.perTask.map((t) => t.reward), perturbed: rewards, perturbedSuccesses: success };
  return { clean: { meanReward: clean.meanReward, successRate: clean.successRate }, perturbed: { meanReward: reward / n, successRate: success / n }, drop: clean.meanReward - reward / n, cleanEvaluation: clean, paired };
}
