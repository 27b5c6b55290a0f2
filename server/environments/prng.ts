// The one pseudo-random generator of the learning code: sfc32 (Chris Doty-Humphrey's "small fast
// counting" generator, 128-bit state, passes PractRand), seeded from SHA-256 of a seed string.
// Seeds are strings so a stream can be named by what it is for ("run-7/train/3/12/tools"): two streams
// with different names never share draws, and a resumed run re-creates exactly the same streams.
// Math.random is never used in server/environments or server/trainers.
import { createHash } from "node:crypto";

export type RngState = [number, number, number, number];

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  private constructor(state: RngState) {
    [this.#a, this.#b, this.#c, this.#d] = state;
  }

  /** A generator seeded from a string; equal strings give equal streams. */
  static from(seed: string): Rng {
    const h = createHash("sha256").update(seed).digest();
    const rng = new Rng([h.readUInt32LE(0), h.readUInt32LE(4), h.readUInt32LE(8), h.readUInt32LE(12)]);
    // The first outputs of sfc32 still correlate with the seed words; discard them (as its author advises).
    for (let i = 0; i < 12; i++) rng.next();
    return rng;
  }

  /** Continues a stream saved with `state()` (checkpoints). */
  static fromState(state: RngState): Rng {
    if (state.length !== 4 || state.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffffffff)) {
      throw new Error("rng state must be four unsigned 32-bit integers");
    }
    return new Rng([...state] as RngState);
  }

  state(): RngState {
    return [this.#a >>> 0, this.#b >>> 0, this.#c >>> 0, this.#d >>> 0];
  }

  /** Uniform in [0, 1) with 32 bits of resolution. */
  next(): number {
    const a = this.#a | 0;
    const b = this.#b | 0;
    const c = this.#c | 0;
    const d = (this.#d + 1) | 0;
    const t = (((a + b) | 0) + d) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    this.#c = (((c << 21) | (c >>> 11)) + t) | 0;
    this.#d = d;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  /** Index drawn with probability proportional to `weights` (non-negative, positive sum). */
  weighted(weights: ArrayLike<number>): number {
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += weights[i]!;
    const u = this.next() * total;
    let acc = 0;
    let last = -1;
    for (let i = 0; i < weights.length; i++) {
      const w = weights[i]!;
      if (w <= 0) continue;
      acc += w;
      last = i;
      if (u < acc) return i;
    }
    if (last < 0) throw new Error("weighted draw needs at least one positive weight");
    return last; // u landed on the rounding slack at the very top
  }

  /** Fisher–Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i]!;
      items[i] = items[j]!;
      items[j] = tmp;
    }
    return items;
  }
}

/** Names a sub-stream: `streamSeed("run-1", "train", 3)` → "run-1/train/3". */
export function streamSeed(seed: string, ...parts: (string | number)[]): string {
  return [seed, ...parts].join("/");
}
