// Trainable decision policies as plain JSON, and how they act. Two kinds:
// - softmax-linear: π(a|s) ∝ exp(w_a · x(s)) over the environment's dense features (PPO trains it);
// - q-tabular: action values per discrete state key, acting greedily (Q-learning trains it).
// - mlp-softmax: π(a|s) = softmax(MLP(raw features)) (PPO with an MLP actor trains it);
// - mlp-q: action values Q(s, ·) = MLP(raw features), acting greedily (DQN trains it).
// All may mix in ε-uniform exploration; the gate evaluates them with their own ε (0 once published).
import type { ActingPolicy } from "@/server/environments/episode";
import type { Environment, Observation } from "@/server/environments/types";
import { initMlp, mlpForward, rawFeatureIndices, type Mlp } from "./neural/mlp";

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

export type Policy = SoftmaxLinearPolicy | QTabularPolicy | MlpPolicy;
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
  const nA = out.length;
  const nF = x.length;
  let max = -Infinity;
  for (let a = 0; a < nA; a++) {
    let z = 0;
    const row = a * nF;
    for (let f = 0; f < nF; f++) {
      const xf = x[f]!;
      if (xf !== 0) z += weights[row + f]! * xf;
    }
    out[a] = z;
    if (z > max) max = z;
  }
  let sum = 0;
  for (let a = 0; a < nA; a++) {
    const e = Math.exp(out[a]! - max);
    out[a] = e;
    sum += e;
  }
  for (let a = 0; a < nA; a++) out[a] = out[a]! / sum;
}

/** Softmax of logits `z` into `out`. */
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

/** Compiles a policy into the fast form the episode driver calls once per step. */
export function actingPolicy(policy: Policy): ActingPolicy {
  const epsilon = policy.epsilon;
  if (policy.kind === "softmax-linear") {
    const w = Float64Array.from(policy.weights);
    return {
      probabilities(obs: Observation, out: Float64Array) {
        softmaxInto(w, obs.features, out);
        mixEpsilon(out, epsilon);
      },
    };
  }
  if (policy.kind !== "q-tabular") {
    const forward = mlpForward(policy.network);
    const softmax = policy.kind === "mlp-softmax";
    const z = new Float64Array(policy.actions.length);
    return {
      probabilities(obs: Observation, out: Float64Array) {
        forward(obs.features, z);
        if (softmax) softmaxOf(z, out);
        else greedyInto(z, out);
        mixEpsilon(out, epsilon);
      },
    };
  }
  const zeros = new Array<number>(policy.actions.length).fill(0);
  const table = policy.table;
  return {
    probabilities(obs: Observation, out: Float64Array) {
      greedyInto(Object.hasOwn(table, obs.key) ? table[obs.key]! : zeros, out);
      mixEpsilon(out, epsilon);
    },
  };
}
