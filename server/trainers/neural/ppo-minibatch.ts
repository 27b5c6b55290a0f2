// One PPO minibatch on an MLP actor-critic: the clipped surrogate, the entropy bonus and the value loss, one Adam
// step with the gradient clipped to a global norm. The PPO-MLP family runs it `epochs` times over shuffled
// minibatches; `npm run bench:tensors` times exactly this step on each TensorFlow.js backend.
import type * as Tf from "@tensorflow/tfjs";
import { clippedStep, forward, inputBatch, type Scalar, type TfNet } from "./tf";

/** One row per step of the batch: raw inputs, the action taken, its log-probability then, advantage and return. */
export type PpoSamples = { rows: number[][]; actions: number[]; oldLogP: number[]; adv: number[]; ret: number[] };
export type PpoLossConfig = { clipRange: number; entropyCoefficient: number; valueCoefficient: number; maxGradNorm: number };
export type MinibatchFigures = { policyLoss: number; valueLoss: number; entropy: number; clipFraction: number; gradNorm: number; minibatches: number };

export const emptyFigures = (): MinibatchFigures => ({ policyLoss: 0, valueLoss: 0, entropy: 0, clipFraction: 0, gradNorm: 0, minibatches: 0 });

/** One optimizer step on the samples `idx`; adds its losses, clip fraction and gradient norm to `figures`. */
export function ppoMinibatch(tf: typeof Tf, nets: { actor: TfNet; critic: TfNet }, opt: Tf.Optimizer, s: PpoSamples, idx: number[], cfg: PpoLossConfig, nA: number, figures: MinibatchFigures): void {
  const { actor, critic } = nets;
  tf.tidy(() => {
    const x = inputBatch(idx.map((i) => s.rows[i]!), actor.inputs.length);
    const oneHot = tf.oneHot(tf.tensor1d(idx.map((i) => s.actions[i]!), "int32"), nA);
    const old = tf.tensor1d(idx.map((i) => s.oldLogP[i]!));
    const A = tf.tensor1d(idx.map((i) => s.adv[i]!));
    const R = tf.tensor1d(idx.map((i) => s.ret[i]!));
    const parts: Record<string, Scalar> = {};
    const norm = clippedStep(
      opt,
      () => {
        const logp = tf.logSoftmax(forward(actor, x));
        const ratio = tf.exp(tf.sub(tf.sum(tf.mul(logp, oneHot), 1), old));
        const surrogate = tf.minimum(tf.mul(ratio, A), tf.mul(tf.clipByValue(ratio, 1 - cfg.clipRange, 1 + cfg.clipRange), A));
        const policyLoss = tf.neg(tf.mean(surrogate)) as Scalar;
        const entropy = tf.neg(tf.mean(tf.sum(tf.mul(tf.exp(logp), logp), 1))) as Scalar;
        const valueLoss = tf.mul(0.5, tf.mean(tf.square(tf.sub(tf.squeeze(forward(critic, x), [1]), R)))) as Scalar;
        // SB3's clip fraction: the share of samples whose ratio left [1 − clip, 1 + clip].
        const clipFraction = tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), cfg.clipRange), "float32")) as Scalar;
        Object.assign(parts, { policyLoss: tf.keep(policyLoss), entropy: tf.keep(entropy), valueLoss: tf.keep(valueLoss), clipFraction: tf.keep(clipFraction) });
        return tf.add(tf.sub(policyLoss, tf.mul(cfg.entropyCoefficient, entropy)), tf.mul(cfg.valueCoefficient, valueLoss)) as Scalar;
      },
      [...actor.vars, ...critic.vars],
      cfg.maxGradNorm,
    );
    figures.gradNorm += norm;
    for (const [k, t] of Object.entries(parts)) {
      figures[k as keyof MinibatchFigures] += t.dataSync()[0]!;
      t.dispose();
    }
    figures.minibatches++;
  });
}
