// A policy that reads the ticket: a tiny transformer encoder over the customer's words (tokenized by OpenAI's
// cl100k_base, text/tokenizer.ts), mean-pooled, beside the environment's structured features (plan, urgency,
// progress flags — never the hashed word buckets), into an MLP head that scores the actions. Plain JSON, and its
// forward pass in plain TypeScript, so runners act with it without TensorFlow.js; training (text/tf-encoder.ts)
// builds tfjs variables from exactly this layout and writes them back.
//
// Layout: pre-norm blocks, x ← x + Attention(LayerNorm(x)); x ← x + Down(ReLU(Up(LayerNorm(x)))); a final
// LayerNorm; the pooled vector is the mean over the text's tokens. Dense kernels are row-major [inputs][outputs].
// Token rows: 0 padding, 1 unknown (a token the encoder has no row for), 2 the mask of pre-training, then one row
// per entry of `vocab` (the tokenizer's ids, grown as pre-training meets new ones).
import { Rng } from "@/server/environments/prng";
import { initMlp, mlpForward, type Mlp } from "../neural/mlp";
import { tokenize, TOKENIZER } from "./tokenizer";

export const PAD = 0;
export const UNKNOWN = 1;
export const MASK = 2;
export const SPECIAL_ROWS = 3;

export type Dense = { kernel: number[]; bias: number[] };
export type Norm = { gain: number[]; bias: number[] };
export type EncoderBlock = { norm1: Norm; query: Dense; key: Dense; value: Dense; output: Dense; norm2: Norm; up: Dense; down: Dense };

export type TextEncoder = {
  tokenizer: typeof TOKENIZER;
  /** The tokenizer ids with an embedding row, in row order after the special rows. */
  vocab: number[];
  maxTokens: number;
  dim: number;
  heads: number;
  hidden: number;
  /** [SPECIAL_ROWS + vocab.length][dim] */
  tokenEmbedding: number[];
  /** [maxTokens][dim] */
  positionEmbedding: number[];
  blocks: EncoderBlock[];
  finalNorm: Norm;
};

export type EncoderShape = { maxTokens: number; dim: number; heads: number; hidden: number; blocks: number };
// 64 tokens: the desk's longest text (a vague opening, then the customer's answer) is 49; at 32 a third were cut.
export const DEFAULT_ENCODER_SHAPE: EncoderShape = { maxTokens: 64, dim: 32, heads: 2, hidden: 64, blocks: 2 };

/** Indices of the features the head reads beside the text: raw ones (no "*" crosses), not the hashed words. */
export function structuredFeatureIndices(featureNames: readonly string[]): number[] {
  return featureNames.flatMap((n, i) => (n.includes("*") || n.startsWith("word#") ? [] : [i]));
}

function uniform(rng: Rng, n: number, limit: number): number[] {
  // float32-exact, as the tfjs variables are.
  return Array.from({ length: n }, () => Math.fround((rng.next() * 2 - 1) * limit));
}
const dense = (rng: Rng, inputs: number, outputs: number): Dense => ({ kernel: uniform(rng, inputs * outputs, Math.sqrt(6 / (inputs + outputs))), bias: new Array<number>(outputs).fill(0) });
const norm = (dim: number): Norm => ({ gain: new Array<number>(dim).fill(1), bias: new Array<number>(dim).fill(0) });

/** A seeded, untrained encoder with no vocabulary yet (every word reads as "unknown" until pre-training). */
export function initEncoder(shape: EncoderShape, seed: string): TextEncoder {
  const rng = Rng.from(`text-encoder/${seed}`);
  const { dim, hidden } = shape;
  if (dim % shape.heads !== 0) throw new Error(`dim ${dim} must be a multiple of heads ${shape.heads}`);
  return {
    tokenizer: TOKENIZER,
    vocab: [],
    maxTokens: shape.maxTokens,
    dim,
    heads: shape.heads,
    hidden,
    tokenEmbedding: uniform(rng, SPECIAL_ROWS * dim, 0.1),
    positionEmbedding: uniform(rng, shape.maxTokens * dim, 0.1),
    blocks: Array.from({ length: shape.blocks }, () => ({ norm1: norm(dim), query: dense(rng, dim, dim), key: dense(rng, dim, dim), value: dense(rng, dim, dim), output: dense(rng, dim, dim), norm2: norm(dim), up: dense(rng, dim, hidden), down: dense(rng, hidden, dim) })),
    finalNorm: norm(dim),
  };
}

/** The head over [pooled text (dim) ; structured features]: its inputs index that concatenation. */
export function initTextHead(dim: number, featureNames: readonly string[], actions: number, seed: string): Mlp {
  const inputs = [...Array.from({ length: dim }, (_, i) => i), ...structuredFeatureIndices(featureNames).map((i) => dim + i)];
  return initMlp(inputs, [64], actions, "tanh", `${seed}/text-head`);
}

/** Embedding rows for a text: tokenizer ids → rows (unknown where the encoder has none), cut to maxTokens. */
export function tokenRows(enc: Pick<TextEncoder, "vocab" | "maxTokens">, rowOf: ReadonlyMap<number, number>, text: string): number[] {
  return tokenize(readable(enc, text))
    .slice(0, enc.maxTokens)
    .map((id) => rowOf.get(id) ?? UNKNOWN);
}

/**
 * The part of a text the encoder can read: no token is shorter than a character and few are longer than 32, so a
 * text of any length (an environment's, a stored step's) costs at most this much to tokenize and to remember.
 */
function readable(enc: Pick<TextEncoder, "maxTokens">, text: string): string {
  const limit = enc.maxTokens * 32;
  return text.length > limit ? text.slice(0, limit) : text;
}

export function rowIndex(vocab: readonly number[]): Map<number, number> {
  return new Map(vocab.map((id, i) => [id, SPECIAL_ROWS + i]));
}

function layerNorm(x: Float64Array, n: Norm, out: Float64Array): void {
  const d = x.length;
  let mean = 0;
  for (let i = 0; i < d; i++) mean += x[i]!;
  mean /= d;
  let v = 0;
  for (let i = 0; i < d; i++) v += (x[i]! - mean) ** 2;
  const inv = 1 / Math.sqrt(v / d + 1e-5);
  for (let i = 0; i < d; i++) out[i] = (x[i]! - mean) * inv * n.gain[i]! + n.bias[i]!;
}

function affine(x: Float64Array, w: Dense, out: Float64Array): void {
  const o = out.length;
  for (let j = 0; j < o; j++) out[j] = w.bias[j]!;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i]!;
    const row = i * o;
    for (let j = 0; j < o; j++) out[j]! += xi * w.kernel[row + j]!;
  }
}

/** The mean-pooled encoding of a text (zeros for a text with no tokens). */
export function encodeText(enc: TextEncoder, rows: readonly number[]): Float64Array {
  const { dim, heads } = enc;
  const L = rows.length;
  const pooled = new Float64Array(dim);
  if (L === 0) return pooled;
  const dh = dim / heads;
  const x = rows.map((r, p) => Float64Array.from({ length: dim }, (_, i) => enc.tokenEmbedding[r * dim + i]! + enc.positionEmbedding[p * dim + i]!));
  const h = new Float64Array(dim);
  const mid = new Float64Array(enc.hidden);
  const back = new Float64Array(dim);
  for (const b of enc.blocks) {
    const q = x.map(() => new Float64Array(dim));
    const k = x.map(() => new Float64Array(dim));
    const v = x.map(() => new Float64Array(dim));
    for (let p = 0; p < L; p++) {
      layerNorm(x[p]!, b.norm1, h);
      affine(h, b.query, q[p]!);
      affine(h, b.key, k[p]!);
      affine(h, b.value, v[p]!);
    }
    const att = x.map(() => new Float64Array(dim));
    const w = new Float64Array(L);
    for (let head = 0; head < heads; head++) {
      const o = head * dh;
      for (let p = 0; p < L; p++) {
        let max = -Infinity;
        for (let t = 0; t < L; t++) {
          let s = 0;
          for (let i = 0; i < dh; i++) s += q[p]![o + i]! * k[t]![o + i]!;
          w[t] = s / Math.sqrt(dh);
          if (w[t]! > max) max = w[t]!;
        }
        let sum = 0;
        for (let t = 0; t < L; t++) sum += w[t] = Math.exp(w[t]! - max);
        for (let t = 0; t < L; t++) for (let i = 0; i < dh; i++) att[p]![o + i]! += (w[t]! / sum) * v[t]![o + i]!;
      }
    }
    for (let p = 0; p < L; p++) {
      affine(att[p]!, b.output, back);
      for (let i = 0; i < dim; i++) x[p]![i]! += back[i]!;
      layerNorm(x[p]!, b.norm2, h);
      affine(h, b.up, mid);
      for (let i = 0; i < mid.length; i++) mid[i] = Math.max(0, mid[i]!);
      affine(mid, b.down, back);
      for (let i = 0; i < dim; i++) x[p]![i]! += back[i]!;
    }
  }
  for (let p = 0; p < L; p++) {
    layerNorm(x[p]!, enc.finalNorm, h);
    for (let i = 0; i < dim; i++) pooled[i]! += h[i]! / L;
  }
  return pooled;
}

/** A compiled scorer: `run(text, features, out)` writes the head's action scores into `out`. */
export function textScorer(enc: TextEncoder, head: Mlp): (text: string, features: ArrayLike<number>, out: Float64Array) => void {
  const rowOf = rowIndex(enc.vocab);
  const forward = mlpForward(head);
  // Runners see the same few texts again and again: keep their encodings (bounded).
  const cache = new Map<string, Float64Array>();
  let input = new Float64Array(0);
  return (whole, features, out) => {
    const text = readable(enc, whole);
    let pooled = cache.get(text);
    if (!pooled) {
      if (cache.size >= 4_096) cache.clear();
      pooled = encodeText(enc, tokenRows(enc, rowOf, text));
      cache.set(text, pooled);
    }
    if (input.length !== enc.dim + features.length) input = new Float64Array(enc.dim + features.length);
    input.set(pooled, 0);
    for (let i = 0; i < features.length; i++) input[enc.dim + i] = features[i]!;
    forward(input, out);
  };
}

/** Shape checks for a published encoder (sizes must agree; the schema checks the numbers are finite). */
export function encoderProblems(enc: TextEncoder): string[] {
  const p: string[] = [];
  const { dim, hidden, heads, maxTokens } = enc;
  if (enc.tokenizer !== TOKENIZER) p.push(`encoder.tokenizer must be ${TOKENIZER}`);
  if (dim % heads !== 0) p.push(`encoder.dim (${dim}) must be a multiple of encoder.heads (${heads})`);
  if (enc.tokenEmbedding.length !== (SPECIAL_ROWS + enc.vocab.length) * dim) p.push(`encoder.tokenEmbedding must hold (${SPECIAL_ROWS} + ${enc.vocab.length}) × ${dim} numbers`);
  if (enc.positionEmbedding.length !== maxTokens * dim) p.push(`encoder.positionEmbedding must hold ${maxTokens} × ${dim} numbers`);
  const sizes: [string, number, number][] = [["query", dim, dim], ["key", dim, dim], ["value", dim, dim], ["output", dim, dim], ["up", dim, hidden], ["down", hidden, dim]];
  enc.blocks.forEach((b, i) => {
    for (const [name, inp, out] of sizes) {
      const d = b[name as "query"];
      if (d.kernel.length !== inp * out || d.bias.length !== out) p.push(`encoder.blocks.${i}.${name} must be ${inp} × ${out} with ${out} biases`);
    }
    for (const n of ["norm1", "norm2"] as const) if (b[n].gain.length !== dim || b[n].bias.length !== dim) p.push(`encoder.blocks.${i}.${n} must hold ${dim} gains and biases`);
  });
  if (enc.finalNorm.gain.length !== dim || enc.finalNorm.bias.length !== dim) p.push(`encoder.finalNorm must hold ${dim} gains and biases`);
  return p;
}
