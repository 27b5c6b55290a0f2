// The text policy in TensorFlow.js: variables built from the JSON of text/encoder.ts, the same forward pass on
// padded batches (padding masked out of attention and of the mean), the masked-token head of pre-training
// (tied to the token embeddings), and the weights written back. Call everything inside tf.tidy except
// `textVariables` and `readBack`.
import type * as Tf from "@tensorflow/tfjs";
import type { Mlp } from "../neural/mlp";
import type { TextPolicy } from "../policy";
import type { Dense, EncoderBlock, Norm, TextEncoder } from "./encoder";

type V = Tf.Variable;
type DenseVars = { kernel: V; bias: V };
type NormVars = { gain: V; bias: V };
type BlockVars = { norm1: NormVars; query: DenseVars; key: DenseVars; value: DenseVars; output: DenseVars; norm2: NormVars; up: DenseVars; down: DenseVars };
export type TextVars = {
  tokenEmbedding: V;
  positionEmbedding: V;
  blocks: BlockVars[];
  finalNorm: NormVars;
  head: DenseVars[];
  /** Pre-training only: the masked-token head's bias (one per token row). */
  mlmBias: V;
  /** Every variable, in one fixed order (the optimizer's state follows it). */
  all: V[];
};

const BLOCK_DENSE = ["query", "key", "value", "output", "up", "down"] as const;

/** A padded batch: token rows [n, L] (0 = padding), their mask, and the structured features [n, f]. */
export type TextBatch = { rows: Int32Array; mask: Float32Array; length: number; structured: Float32Array; width: number; n: number };

export function textBatch(items: readonly { rows: readonly number[]; structured: readonly number[] }[], maxTokens: number): TextBatch {
  const n = items.length;
  const length = Math.max(1, Math.min(maxTokens, Math.max(0, ...items.map((i) => i.rows.length))));
  const width = items[0]?.structured.length ?? 0;
  const rows = new Int32Array(n * length);
  const mask = new Float32Array(n * length);
  const structured = new Float32Array(n * width);
  items.forEach((it, b) => {
    it.rows.slice(0, length).forEach((r, p) => {
      rows[b * length + p] = r;
      mask[b * length + p] = 1;
    });
    structured.set(it.structured, b * width);
  });
  return { rows, mask, length, structured, width, n };
}

export function textVariables(tf: typeof Tf, policy: TextPolicy, mlmBias: readonly number[] | null): TextVars {
  const e = policy.encoder;
  const all: V[] = [];
  const v = (values: readonly number[], shape: number[]) => {
    const x = tf.tidy(() => tf.variable(tf.tensor(values as number[], shape), true));
    all.push(x);
    return x;
  };
  const dense = (d: Dense, inputs: number, outputs: number) => ({ kernel: v(d.kernel, [inputs, outputs]), bias: v(d.bias, [outputs]) });
  const norm = (n: Norm) => ({ gain: v(n.gain, [e.dim]), bias: v(n.bias, [e.dim]) });
  const rows = e.tokenEmbedding.length / e.dim;
  const tokenEmbedding = v(e.tokenEmbedding, [rows, e.dim]);
  const positionEmbedding = v(e.positionEmbedding, [e.maxTokens, e.dim]);
  const size = (name: (typeof BLOCK_DENSE)[number]): [number, number] => (name === "up" ? [e.dim, e.hidden] : name === "down" ? [e.hidden, e.dim] : [e.dim, e.dim]);
  const blocks = e.blocks.map((b) => ({
    norm1: norm(b.norm1),
    ...(Object.fromEntries(BLOCK_DENSE.map((name) => [name, dense(b[name], ...size(name))])) as Record<(typeof BLOCK_DENSE)[number], DenseVars>),
    norm2: norm(b.norm2),
  }));
  const finalNorm = norm(e.finalNorm);
  let fanIn = policy.head.inputs.length;
  const head = policy.head.layers.map((l) => {
    const d = dense(l, fanIn, l.units);
    fanIn = l.units;
    return d;
  });
  const bias = v(mlmBias ?? new Array<number>(rows).fill(0), [rows]);
  return { tokenEmbedding, positionEmbedding, blocks, finalNorm, head, mlmBias: bias, all };
}

function layerNorm(tf: typeof Tf, x: Tf.Tensor, n: NormVars): Tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), n.gain), n.bias);
}

function affine(tf: typeof Tf, x: Tf.Tensor, d: DenseVars): Tf.Tensor {
  const shape = x.shape;
  const flat = tf.reshape(x, [-1, shape[shape.length - 1]!]) as Tf.Tensor2D;
  const y = tf.add(tf.matMul(flat, d.kernel as Tf.Tensor2D), d.bias);
  return tf.reshape(y, [...shape.slice(0, -1), d.kernel.shape[1]!]);
}

/** The encoder's token states [n, L, dim] after the final norm. */
export function encodeBatch(tf: typeof Tf, vars: TextVars, enc: Pick<TextEncoder, "dim" | "heads">, b: TextBatch, rows: Int32Array = b.rows): Tf.Tensor3D {
  const { n, length: L } = b;
  const dh = enc.dim / enc.heads;
  // A one-hot product rather than tf.gather: gather's gradient needs a kernel the WASM backend lacks (and the
  // vocabulary is a few hundred rows).
  const oneHot = tf.oneHot(tf.tensor1d(rows, "int32"), vars.tokenEmbedding.shape[0]!) as Tf.Tensor2D;
  const embedded = tf.reshape(tf.matMul(oneHot, vars.tokenEmbedding as Tf.Tensor2D), [n, L, enc.dim]);
  let x: Tf.Tensor = tf.add(embedded, tf.slice(vars.positionEmbedding, [0, 0], [L, enc.dim]));
  // Keys that are padding get −1e9 before the softmax.
  const keyMask = tf.reshape(tf.mul(tf.sub(tf.tensor2d(b.mask, [n, L]), 1), 1e9), [n, 1, 1, L]);
  const split = (t: Tf.Tensor) => tf.transpose(tf.reshape(t, [n, L, enc.heads, dh]), [0, 2, 1, 3]);
  for (const blk of vars.blocks) {
    const h = layerNorm(tf, x, blk.norm1);
    const q = split(affine(tf, h, blk.query));
    const k = split(affine(tf, h, blk.key));
    const v = split(affine(tf, h, blk.value));
    const scores = tf.add(tf.div(tf.matMul(q as Tf.Tensor4D, k as Tf.Tensor4D, false, true), Math.sqrt(dh)), keyMask);
    const att = tf.matMul(tf.softmax(scores), v as Tf.Tensor4D);
    x = tf.add(x, affine(tf, tf.reshape(tf.transpose(att, [0, 2, 1, 3]), [n, L, enc.dim]), blk.output));
    x = tf.add(x, affine(tf, tf.relu(affine(tf, layerNorm(tf, x, blk.norm2), blk.up)), blk.down));
  }
  return layerNorm(tf, x, vars.finalNorm) as Tf.Tensor3D;
}

/** Action logits [n, actions]: the head over [mean of the text's token states ; structured features]. */
export function policyLogits(tf: typeof Tf, vars: TextVars, enc: Pick<TextEncoder, "dim" | "heads">, b: TextBatch): Tf.Tensor2D {
  const states = encodeBatch(tf, vars, enc, b);
  const mask = tf.reshape(tf.tensor2d(b.mask, [b.n, b.length]), [b.n, b.length, 1]);
  const count = tf.maximum(tf.sum(mask, 1), 1);
  const pooled = tf.div(tf.sum(tf.mul(states, mask), 1), count);
  let h: Tf.Tensor = tf.concat([pooled, tf.tensor2d(b.structured, [b.n, b.width])], 1);
  vars.head.forEach((d, i) => {
    h = affine(tf, h, d);
    if (i < vars.head.length - 1) h = tf.tanh(h);
  });
  return h as Tf.Tensor2D;
}

/** Masked-token logits [n, L, rows] from the token states (the output layer shares the embedding matrix). */
export function maskedTokenLogits(tf: typeof Tf, vars: TextVars, states: Tf.Tensor3D): Tf.Tensor3D {
  const [n, L, d] = states.shape;
  const flat = tf.matMul(tf.reshape(states, [n * L, d]) as Tf.Tensor2D, vars.tokenEmbedding as Tf.Tensor2D, false, true);
  return tf.reshape(tf.add(flat, vars.mlmBias), [n, L, -1]) as Tf.Tensor3D;
}

const read = (x: V) => Array.from(x.dataSync());

/** The trained weights as the policy's JSON (and the pre-training head's bias). */
export function readBack(vars: TextVars, policy: TextPolicy): { policy: TextPolicy; mlmBias: number[] } {
  const dense = (d: DenseVars): Dense => ({ kernel: read(d.kernel), bias: read(d.bias) });
  const norm = (n: NormVars): Norm => ({ gain: read(n.gain), bias: read(n.bias) });
  const blocks: EncoderBlock[] = vars.blocks.map((b) => ({ norm1: norm(b.norm1), query: dense(b.query), key: dense(b.key), value: dense(b.value), output: dense(b.output), norm2: norm(b.norm2), up: dense(b.up), down: dense(b.down) }));
  const encoder: TextEncoder = { ...policy.encoder, tokenEmbedding: read(vars.tokenEmbedding), positionEmbedding: read(vars.positionEmbedding), blocks, finalNorm: norm(vars.finalNorm) };
  const head: Mlp = { ...policy.head, layers: vars.head.map((d, i) => ({ ...dense(d), units: policy.head.layers[i]!.units })) };
  return { policy: { ...policy, encoder, head }, mlmBias: read(vars.mlmBias) };
}
