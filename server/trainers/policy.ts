// Trainable decision policies as plain JSON, and how they act. Two kinds:
// - softmax-linear: π(a|s) ∝ exp(w_a · x(s)) over the environment's dense features (PPO trains it);
// - q-tabular: action values per discrete state key, acting greedily (Q-learning trains it).
// - mlp-softmax: π(a|s) = softmax(MLP(raw features)) (PPO with an MLP actor trains it);
// - mlp-q: action values Q(s, ·) = MLP(raw features), acting greedily (DQN trains it);
// - text-softmax: π(a|s) = softmax(head(encoder(the words it reads), structured features)) — a tiny transformer
//   over the customer's text (text/encoder.ts; the text-policy family trains it).
// All may mix in ε-uniform exploration while they train. How a policy acts once published is part of the resource
// (`serving`): greedy (the highest-scored action) or sampling at a temperature; runners serving the gate's and the
// canary's rollouts, and every evaluation, act that way and never explore. Trainers publish greedy
// (family.ts `policyCandidate`); a policy that names no `serving` (older resources, the untrained lineage roots)
// acts as such policies always did: softmax kinds sample at T = 1, Q kinds act greedily.
import type { ActingPolicy } from "@/server/environments/episode";
import type { Environment, Observation } from "@/server/environments/types";
import { servingOf, type Serving } from "@/lib/policies/serving";
import { initMlp, mlpForward, rawFeatureIndices, type Mlp } from "./neural/mlp";
import { DEFAULT_ENCODER_SHAPE, initEncoder, initTextHead, textScorer, type TextEncoder } from "./text/encoder";

export { GREEDY, servingOf, type Serving } from "@/lib/policies/serving";

export type PolicyEnvironment = { id: string; specDigest: string };

export type SoftmaxLinearPolicy = {
  kind: "softmax-linear";
  environment: PolicyEnvironment;
  actions: string[];
  featureCount: number;
  /** Row-major [action][feature]. */
  weights: number[];
  epsilon: number;
};

export type QTabularPolicy = {
  kind: "q-tabular";
  environment: PolicyEnvironment;
  actions: string[];
  /** State key → one value per action; unseen states value every action at 0. */
  table: Record<string, number[]>;
  epsilon: number;
};

/** A neural policy: the network over the environment's raw features (see neural/mlp.ts for the layout). */
export type MlpPolicy = {
  kind: "mlp-softmax" | "mlp-q";
  environment: PolicyEnvironment;
  actions: string[];
  featureCount: number;
  network: Mlp;
  epsilon: number;
};

/** A policy that reads text: the encoder over `Observation.text`, the head over [pooled text ; structured features]. */
export type TextPolicy = {
  kind: "text-softmax";
  environment: PolicyEnvironment;
  actions: string[];
  featureCount: number;
  encoder: TextEncoder;
  head: Mlp;
  epsilon: number;
};

export type Policy = (SoftmaxLinearPolicy | QTabularPolicy | MlpPolicy | TextPolicy) & { serving?: Serving };

/** Every policy kind, in one place (the resource schema's union follows it). */
export const POLICY_KINDS = ["softmax-linear", "q-tabular", "mlp-softmax", "mlp-q", "text-softmax"] as const satisfies readonly Policy["kind"][];

/** True for any object whose kind names a policy kind. */
export function isPolicy(resource: unknown): resource is Policy {
  const kind = (resource as { kind?: unknown } | null)?.kind;
  return (POLICY_KINDS as readonly unknown[]).includes(kind);
}

/** "serve": as published (its `serving`, no exploration); "explore": as it trains (softmax or greedy, plus ε). */
export type ActingMode = "serve" | "explore";
export type PolicyKind = Policy["kind"];

type EnvShape = Pick<Environment, "id" | "specDigest" | "actions" | "featureNames">;

/** The untrained starting point of a kind: every action equally likely. */
export function initialPolicy(kind: PolicyKind, env: EnvShape): Policy {
  const environment = { id: env.id, specDigest: env.specDigest };
  const actions = env.actions.map((a) => a.name);
  if (kind === "softmax-linear") {
    return { kind, environment, actions, featureCount: env.featureNames.length, weights: new Array(actions.length * env.featureNames.length).fill(0), epsilon: 0 };
  }
  if (kind === "mlp-softmax" || kind === "mlp-q") {
    // Seeded by the spec, so "the untrained MLP of this environment" is one exact resource.
    const network = initMlp(rawFeatureIndices(env.featureNames), [64, 64], actions.length, "tanh", `${env.specDigest}/${kind}`);
    return { kind, environment, actions, featureCount: env.featureNames.length, network, epsilon: 0 };
  }
  if (kind === "text-softmax") {
    const seed = `${env.specDigest}/${kind}`;
    const encoder = initEncoder(DEFAULT_ENCODER_SHAPE, seed);
    return { kind, environment, actions, featureCount: env.featureNames.length, encoder, head: initTextHead(encoder.dim, env.featureNames, actions.length, seed), epsilon: 0 };
  }
  return { kind, environment, actions, table: {}, epsilon: 0 };
}

/** Throws unless the policy was made for exactly this environment spec. */
export function assertPolicyFits(policy: Policy, env: EnvShape): void {
  if (policy.environment.id !== env.id || policy.environment.specDigest !== env.specDigest) {
    throw new Error(
      `policy is for ${policy.environment.id} ${policy.environment.specDigest}, but the environment is ${env.id} ${env.specDigest} (actions, features or tool contracts differ)`,
    );
  }
}

export function withEpsilon<P extends Policy>(policy: P, epsilon: number): P {
  return { ...policy, epsilon };
}

/** Softmax of w_a · x into `out` (no exploration mixed in). */
export function softmaxInto(weights: Float64Array, x: ArrayLike<number>, out: Float64Array): void {
  linearScoresInto(weights, x, out);
  softmaxOf(out, out);
}

/** Softmax of logits `z` into `out` (which may be `z` itself: each entry is read before it is written). */
export function softmaxOf(z: ArrayLike<number>, out: Float64Array): void {
  let max = -Infinity;
  for (let a = 0; a < out.length; a++) if (z[a]! > max) max = z[a]!;
  let sum = 0;
  for (let a = 0; a < out.length; a++) sum += out[a] = Math.exp(z[a]! - max);
  for (let a = 0; a < out.length; a++) out[a] = out[a]! / sum;
}

/** Uniform over the highest-valued actions (ties split evenly) into `out`. */
export function greedyInto(values: ArrayLike<number>, out: Float64Array): void {
  let max = -Infinity;
  for (let a = 0; a < out.length; a++) if (values[a]! > max) max = values[a]!;
  let ties = 0;
  for (let a = 0; a < out.length; a++) ties += values[a] === max ? 1 : 0;
  for (let a = 0; a < out.length; a++) out[a] = values[a] === max ? 1 / ties : 0;
}

function mixEpsilon(out: Float64Array, epsilon: number): void {
  if (epsilon === 0) return;
  const uniform = epsilon / out.length;
  for (let a = 0; a < out.length; a++) out[a] = (1 - epsilon) * out[a]! + uniform;
}

/** The linear scores w_a · x (softmax-linear's logits) into `out`. */
function linearScoresInto(weights: Float64Array, x: ArrayLike<number>, out: Float64Array): void {
  const nF = x.length;
  for (let a = 0; a < out.length; a++) {
    let z = 0;
    const row = a * nF;
    for (let f = 0; f < nF; f++) {
      const xf = x[f]!;
      if (xf !== 0) z += weights[row + f]! * xf;
    }
    out[a] = z;
  }
}

/** Action probabilities from the scores as the policy serves: greedy, or softmax(scores / T). */
function servedFrom(serving: Serving, z: Float64Array, scaled: Float64Array, out: Float64Array): void {
  if (serving.mode === "greedy") return greedyInto(z, out);
  for (let a = 0; a < z.length; a++) scaled[a] = z[a]! / serving.temperature;
  softmaxOf(scaled, out);
}

/** Compiles a policy into the fast form the episode driver calls once per step. */
export function actingPolicy(policy: Policy, mode: ActingMode = "explore"): ActingPolicy {
  const z = new Float64Array(policy.actions.length);
  const scaled = new Float64Array(policy.actions.length);
  const zeros = new Array<number>(policy.actions.length).fill(0);
  let scores: (obs: Observation, out: Float64Array) => void;
  if (policy.kind === "softmax-linear") {
    const w = Float64Array.from(policy.weights);
    if (mode === "explore") {
      const epsilon = policy.epsilon;
      return {
        probabilities(obs: Observation, out: Float64Array) {
          softmaxInto(w, obs.features, out);
          mixEpsilon(out, epsilon);
        },
      };
    }
    scores = (obs, out) => linearScoresInto(w, obs.features, out);
  } else if (policy.kind === "text-softmax") {
    const score = textScorer(policy.encoder, policy.head);
    scores = (obs, out) => {
      if (obs.text === undefined) throw new Error("a text-softmax policy reads the words of the ticket; this environment's observations carry none");
      score(obs.text, obs.features, out);
    };
  } else if (policy.kind !== "q-tabular") {
    const forward = mlpForward(policy.network);
    scores = (obs, out) => forward(obs.features, out);
  } else {
    const table = policy.table;
    scores = (obs, out) => out.set(Object.hasOwn(table, obs.key) ? table[obs.key]! : zeros);
  }
  if (mode === "serve") {
    const serving = servingOf(policy);
    return {
      probabilities(obs: Observation, out: Float64Array) {
        scores(obs, z);
        servedFrom(serving, z, scaled, out);
      },
    };
  }
  const epsilon = policy.epsilon;
  const softmax = policy.kind === "mlp-softmax" || policy.kind === "text-softmax";
  return {
    probabilities(obs: Observation, out: Float64Array) {
      scores(obs, z);
      if (softmax) softmaxOf(z, out);
      else greedyInto(z, out);
      mixEpsilon(out, epsilon);
    },
  };
}
