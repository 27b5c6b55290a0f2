// Maximum-entropy inverse RL (Ziebart et al., 2008) over the reward model's own features: the four
// measured reward components of each step. Under MaxEnt, a trajectory's probability grows with
// exp(θ·Φ(τ)), Φ the (discounted) sum of its steps' components. The partition function is estimated by
// importance sampling from background trajectories the parent policy collects (relative-entropy IRL,
// Boularias et al., 2011; guided cost learning, Finn et al., 2016): the log-likelihood gradient is
// mean_demos Φ − Σ_j ŵ_j Φ_j with ŵ_j ∝ exp(θ·Φ_j − log q(τ_j)). Recovered θ (kept ≥ 0 by projection
// when asked) becomes the PPO reward weights; update 1 fits θ, every later update is one PPO round.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { simulateEpisode } from "@/server/environments/episode";
import { streamSeed } from "@/server/environments/prng";
import { REWARD_COMPONENTS, type RewardComponents } from "@/server/environments/types";
import { Adam } from "../adam";
import type { Trainer } from "../algorithm";
import { policyCandidate, requireRecords, type AnyEnvironment, type FamilySession, type FamilyStart, softmaxFamily } from "../family";
import { collectBatch } from "../loop";
import { actingPolicy, withEpsilon, type SoftmaxLinearPolicy } from "../policy";
import { createPpoTrainer, ppoConfigSchema } from "../ppo";
import { restoreTrainer } from "../trainers";

export const maxentIrlConfigSchema = z
  .object({
    gradientSteps: z.number().int("gradientSteps must be an integer").min(1, "gradientSteps must be ≥ 1").max(100_000).default(400),
    learningRate: z.number().gt(0, "learningRate must be > 0").max(10, "learningRate must be ≤ 10").default(0.05),
    /** L2 on θ (the seed's regularization_weight). */
    regularization: z.number().min(0, "regularization must be ≥ 0").max(100, "regularization must be ≤ 100").default(1),
    /** Keep every recovered weight ≥ 0 (the reward model only takes non-negative weights). */
    nonNegative: z.boolean().default(true),
    /** γ for the feature counts Φ. */
    discount: z.number().gt(0, "discount must be > 0").max(1, "discount must be ≤ 1").default(1),
    /** Background trajectories sampled from the parent (with at least this ε, so every action has support). */
    background: z
      .object({
        episodes: z.number().int("episodes must be an integer").min(10, "episodes must be ≥ 10").max(100_000).default(1500),
        epsilon: z.number().min(0, "epsilon must be ≥ 0").max(1, "epsilon must be ≤ 1").default(0.3),
      })
      .strict()
      .prefault({}),
    /** PPO on the recovered reward; its reward.weights are replaced by the recovered ones. */
    ppo: ppoConfigSchema.prefault({}),
    episodesPerUpdate: z.number().int("episodesPerUpdate must be an integer").min(1, "episodesPerUpdate must be ≥ 1").max(10_000).default(128),
    toolFailureRate: z.number().min(0, "toolFailureRate must be ≥ 0").max(1, "toolFailureRate must be ≤ 1").default(0),
  })
  .strict();
export type MaxentIrlConfig = z.output<typeof maxentIrlConfigSchema>;

export type FeatureCounts = number[];
export type IrlResult = { theta: number[]; weights: RewardComponents; logLikelihood: number[]; effectiveSamples: number };

/** Φ of a list of steps with components: Σ_t γ^t φ_t. Steps without components are refused. */
export function featureCounts(steps: readonly { components: RewardComponents | null }[], discount: number, where: string): FeatureCounts {
  const phi = new Array(REWARD_COMPONENTS.length).fill(0);
  steps.forEach((s, t) => {
    if (!s.components) throw new Error(`${where} step ${t} has no reward components: inverse RL needs what the environment measured`);
    REWARD_COMPONENTS.forEach((k, i) => (phi[i] += discount ** t * s.components![k]));
  });
  return phi;
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

/** Fits θ by gradient ascent on the importance-sampled MaxEnt log-likelihood. Deterministic. */
export function fitMaxEnt(demos: readonly FeatureCounts[], background: readonly { phi: FeatureCounts; logQ: number }[], cfg: Pick<MaxentIrlConfig, "gradientSteps" | "learningRate" | "regularization" | "nonNegative">): IrlResult {
  if (demos.length === 0 || background.length === 0) throw new Error("inverse RL needs demonstrations and background trajectories");
  const d = REWARD_COMPONENTS.length;
  const target = new Array(d).fill(0).map((_, i) => demos.reduce((s, p) => s + p[i]!, 0) / demos.length);
  const theta = new Float64Array(d);
  const opt = new Adam(d);
  const grad = new Float64Array(d);
  const logLikelihood: number[] = [];
  let ess = 0;
  for (let step = 0; step < cfg.gradientSteps; step++) {
    const th = Array.from(theta);
    const logits = background.map((b) => dot(th, b.phi) - b.logQ);
    const max = Math.max(...logits);
    const ws = logits.map((l) => Math.exp(l - max));
    const z = ws.reduce((a, b) => a + b, 0);
    const expected = new Array(d).fill(0);
    background.forEach((b, j) => b.phi.forEach((v, i) => (expected[i] += (ws[j]! / z) * v)));
    // Descent on the negative log-likelihood: −(mean_D Φ − E_θ Φ) + λθ.
    for (let i = 0; i < d; i++) grad[i] = -(target[i]! - expected[i]!) + cfg.regularization * theta[i]!;
    opt.step(theta, grad, cfg.learningRate);
    if (cfg.nonNegative) for (let i = 0; i < d; i++) if (theta[i]! < 0) theta[i] = 0;
    logLikelihood.push(dot(th, target) - (max + Math.log(z / background.length)) - (cfg.regularization / 2) * dot(th, th));
    ess = z * z / ws.reduce((a, w) => a + w * w, 0);
  }
  const th = Array.from(theta);
  return { theta: th, weights: rewardWeightsFrom(th), logLikelihood, effectiveSamples: ess };
}

/** θ as reward-model weights: negative parts dropped, scaled to sum 1 (the scale does not change the optimal policy). */
export function rewardWeightsFrom(theta: readonly number[]): RewardComponents {
  const pos = theta.map((v) => Math.max(0, v));
  const sum = pos.reduce((a, b) => a + b, 0);
  if (sum === 0) throw new Error("inverse RL recovered no positive reward weight: the demonstrations do not prefer any measured component");
  return Object.fromEntries(REWARD_COMPONENTS.map((k, i) => [k, pos[i]! / sum])) as RewardComponents;
}

/**
 * How alike two reward weightings order actions: over observed steps grouped by state, the share of
 * action pairs (with different true values) that both order the same way. 1 = identical ranking.
 */
export function rankAgreement(steps: readonly { key: string; action: string; components: RewardComponents | null }[], truth: RewardComponents, other: RewardComponents): number {
  const byState = new Map<string, Map<string, RewardComponents[]>>();
  for (const s of steps) {
    if (!s.components) continue;
    const m = byState.get(s.key) ?? new Map<string, RewardComponents[]>();
    m.set(s.action, [...(m.get(s.action) ?? []), s.components]);
    byState.set(s.key, m);
  }
  const value = (cs: RewardComponents[], w: RewardComponents) => cs.reduce((a, c) => a + REWARD_COMPONENTS.reduce((s, k) => s + w[k] * c[k], 0), 0) / cs.length;
  let agree = 0;
  let pairs = 0;
  for (const m of byState.values()) {
    const acts = [...m.values()];
    for (let i = 0; i < acts.length; i++) {
      for (let j = i + 1; j < acts.length; j++) {
        const dt = value(acts[i]!, truth) - value(acts[j]!, truth);
        if (Math.abs(dt) < 1e-12) continue;
        pairs++;
        if (Math.sign(dt) === Math.sign(value(acts[i]!, other) - value(acts[j]!, other))) agree++;
      }
    }
  }
  return pairs ? agree / pairs : 1;
}

/**
 * Concordance of two weightings over whole trajectories: the share of trajectory pairs (with different
 * true returns) that both order the same way (Kendall's concordance; 1 = same ranking).
 */
export function returnRankAgreement(phis: readonly FeatureCounts[], truth: RewardComponents, other: RewardComponents): number {
  const w = (c: RewardComponents) => REWARD_COMPONENTS.map((k) => c[k]);
  const t = phis.map((p) => dot(w(truth), p));
  const o = phis.map((p) => dot(w(other), p));
  let agree = 0;
  let pairs = 0;
  for (let i = 0; i < phis.length; i++) {
    for (let j = i + 1; j < phis.length; j++) {
      const dt = t[i]! - t[j]!;
      if (Math.abs(dt) < 1e-12) continue;
      pairs++;
      if (Math.sign(dt) === Math.sign(o[i]! - o[j]!)) agree++;
    }
  }
  return pairs ? agree / pairs : 1;
}

/** Background trajectories from the parent (ε-mixed), with their feature counts and log q(τ). */
export function backgroundSamples(env: AnyEnvironment, parent: SoftmaxLinearPolicy, init: Pick<FamilyStart<MaxentIrlConfig, unknown>, "distribution" | "seed">, cfg: MaxentIrlConfig) {
  const acting = actingPolicy(withEpsilon(parent, Math.max(parent.epsilon, cfg.background.epsilon)));
  const out: { phi: FeatureCounts; logQ: number }[] = [];
  for (let i = 0; i < cfg.background.episodes; i++) {
    const seed = streamSeed(init.seed, "irl-background", i);
    const task = env.sampleTask(init.distribution, seed);
    const ep = simulateEpisode(env, acting, task, { episodeKey: `irl/${i}`, seed, options: { toolFailureRate: 0 } });
    out.push({ phi: featureCounts(ep.steps, cfg.discount, `background ${i}`), logQ: ep.steps.reduce((s, x) => s + x.logProb, 0) });
  }
  return out;
}

type IrlState = { irl: IrlResult | null; ppo: unknown };

class MaxentIrlSession implements FamilySession {
  readonly family = "maxent-irl" as const;
  readonly #init: FamilyStart<MaxentIrlConfig, SoftmaxLinearPolicy>;
  readonly #demos: Demonstration[];
  #irl: IrlResult | null;
  #ppo: Trainer | null;
  #last: Record<string, number> = {};

  constructor(init: FamilyStart<MaxentIrlConfig, SoftmaxLinearPolicy>, state?: IrlState) {
    this.#init = init;
    this.#demos = requireRecords("maxent-irl", init.data, "demonstration");
    this.#irl = state?.irl ?? null;
    this.#ppo = state?.ppo ? restoreTrainer(state.ppo, init.environment) : null;
  }

  get updates() {
    return (this.#irl ? 1 : 0) + (this.#ppo?.updates ?? 0);
  }
  get finished() {
    return false;
  }

  async step() {
    const { environment: env, config: cfg } = this.#init;
    if (!this.#irl) {
      const demos = this.#demos.map((d) => featureCounts(d.steps, cfg.discount, `demonstration ${d.id}`));
      this.#irl = fitMaxEnt(demos, backgroundSamples(env, this.#init.parent, this.#init, cfg), cfg);
      this.#ppo = createPpoTrainer({ config: { ...cfg.ppo, reward: { ...cfg.ppo.reward, weights: this.#irl.weights } }, parent: this.#init.parent, seed: `${this.#init.seed}/ppo`, environment: env });
      const ll = this.#irl.logLikelihood;
      this.#last = { logLikelihood: ll[ll.length - 1]!, effectiveSamples: this.#irl.effectiveSamples, ...prefixed("weight.", this.#irl.weights) };
      return { update: 1, finished: false, figures: this.#last, note: "fitted the reward weights" };
    }
    const ppo = this.#ppo!;
    const batch = collectBatch(env, ppo.currentPolicy(), ppo.updates, { distribution: this.#init.distribution, episodesPerUpdate: cfg.episodesPerUpdate, seed: `${this.#init.seed}/ppo`, options: { toolFailureRate: cfg.toolFailureRate } });
    const stats = ppo.update(batch.trajectories);
    this.#last = { meanEpisodeReward: stats.meanEpisodeReward, ...stats.figures };
    return { update: this.updates, finished: false, figures: this.#last };
  }

  candidate() {
    const policy = this.#ppo ? (this.#ppo.currentPolicy() as SoftmaxLinearPolicy) : this.#init.parent;
    return policyCandidate({ ...policy, epsilon: 0 });
  }
  report() {
    return { recovered: this.#irl && { theta: this.#irl.theta, weights: this.#irl.weights, effectiveSamples: this.#irl.effectiveSamples }, demonstrations: this.#demos.length, ppoUpdates: this.#ppo?.updates ?? 0, last: this.#last };
  }
  state(): IrlState {
    return { irl: this.#irl, ppo: this.#ppo?.checkpoint() ?? null };
  }
}

function prefixed(prefix: string, o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [prefix + k, v]));
}

export const maxentIrlFamily = softmaxFamily({
  name: "maxent-irl",
  description: "Recovers reward weights from expert demonstrations (MaxEnt IRL), then trains the policy with PPO on that reward.",
  configSchema: maxentIrlConfigSchema,
  reads: ["demonstration"],
  start: (init, state) => new MaxentIrlSession(init, state as IrlState | undefined),
});

