// Multi-layer perceptrons as plain JSON, and their forward pass in plain TypeScript: what a published
// neural policy is and how any runner acts with it, without TensorFlow.js. Training (neural/*-family.ts)
// uses tfjs for gradients and optimizers; the weights round-trip through this layout unchanged, so the
// gate, the runners and the trainer see the same function (float32 in training, float64 here: the
// difference is below 1e-6 in logits).
//
// Layout: `layers[i].kernel` is row-major [inputs][units] (tfjs's dense kernel layout), `bias` [units];
// hidden layers use `activation`, the last layer is linear. The input is the environment's *raw*
// features — every feature whose name has no "*" (no hand-made crosses) — at the indices `inputs`.
import { Rng } from "@/server/environments/prng";

export type MlpLayer = { kernel: number[]; bias: number[]; units: number };
export type Mlp = { inputs: number[]; activation: "tanh" | "relu"; layers: MlpLayer[] };

/** Indices of the raw features (names without "*"). */
export function rawFeatureIndices(featureNames: readonly string[]): number[] {
  return featureNames.flatMap((n, i) => (n.includes("*") ? [] : [i]));
}

/** A seeded MLP: Glorot-uniform hidden layers, the output layer zero (a uniform policy / zero values at start). */
export function initMlp(inputs: readonly number[], hidden: readonly number[], outputs: number, activation: Mlp["activation"], seed: string): Mlp {
  const rng = Rng.from(`mlp-init/${seed}`);
  const layers: MlpLayer[] = [];
  let fanIn = inputs.length;
  for (const units of [...hidden, outputs]) {
    const last = layers.length === hidden.length;
    const limit = Math.sqrt(6 / (fanIn + units));
    // Math.fround: the tfjs variables are float32; starting from float32-exact values keeps both forms equal.
    const kernel = Array.from({ length: fanIn * units }, () => (last ? 0 : Math.fround((rng.next() * 2 - 1) * limit)));
    layers.push({ kernel, bias: new Array<number>(units).fill(0), units });
    fanIn = units;
  }
  return { inputs: [...inputs], activation, layers };
}

/** A compiled forward pass: `run(features, out)` writes the last layer's outputs into `out`. */
export function mlpForward(m: Mlp): (features: ArrayLike<number>, out: Float64Array) => void {
  const kernels = m.layers.map((l) => Float64Array.from(l.kernel));
  const biases = m.layers.map((l) => Float64Array.from(l.bias));
  const buffers = [new Float64Array(m.inputs.length), ...m.layers.map((l) => new Float64Array(l.units))];
  const inputs = Int32Array.from(m.inputs);
  const relu = m.activation === "relu";
  return (features, out) => {
    const x0 = buffers[0]!;
    for (let i = 0; i < inputs.length; i++) x0[i] = features[inputs[i]!]!;
    for (let l = 0; l < kernels.length; l++) {
      const x = buffers[l]!;
      const y = buffers[l + 1]!;
      const k = kernels[l]!;
      const units = y.length;
      y.set(biases[l]!);
      for (let i = 0; i < x.length; i++) {
        const xi = x[i]!;
        if (xi === 0) continue;
        const row = i * units;
        for (let j = 0; j < units; j++) y[j]! += xi * k[row + j]!;
      }
      if (l < kernels.length - 1) for (let j = 0; j < units; j++) y[j] = relu ? Math.max(0, y[j]!) : Math.tanh(y[j]!);
    }
    out.set(buffers[buffers.length - 1]!);
  };
}

/** Checks shapes: every kernel fits its input and units, the last layer has `outputs` units. */
export function mlpProblems(m: Mlp, featureCount: number, outputs: number): string[] {
  const problems: string[] = [];
  if (m.inputs.some((i) => !Number.isInteger(i) || i < 0 || i >= featureCount)) problems.push(`inputs must be feature indices below ${featureCount}`);
  let fanIn = m.inputs.length;
  m.layers.forEach((l, i) => {
    if (l.kernel.length !== fanIn * l.units) problems.push(`layers.${i}.kernel must hold ${fanIn} × ${l.units} numbers`);
    if (l.bias.length !== l.units) problems.push(`layers.${i}.bias must hold ${l.units} numbers`);
    fanIn = l.units;
  });
  if (m.layers.length === 0 || m.layers[m.layers.length - 1]!.units !== outputs) problems.push(`the last layer must have one unit per action (${outputs})`);
  return problems;
}
