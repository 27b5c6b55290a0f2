// Near-duplicate detection in ~linear time: MinHash signatures of each text's 3-word shingles, banded
// into locality-sensitive hash buckets (Broder 1997; Leskovec, Rajaraman & Ullman, "Mining of Massive
// Datasets", ch. 3), so a text is compared only with the kept texts of its own group that share a
// bucket — then exactly, by the Jaccard similarity of the shingle sets. The bands are chosen from the
// threshold so a pair at the threshold is missed with probability below 1e-6 (pairs above it less).
// Shingles are 32-bit hashes (murmur3's finalizer over FNV-1a word hashes): two different shingles of
// two records collide with probability ~2^-32.

/** murmur3's 32-bit finalizer: a bijection, so with a seed xor-ed in it is one random-looking permutation. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const WORD = /[^\p{L}\p{N}]+/u;

/** The text's distinct 3-word shingles as sorted 32-bit hashes (lower-cased, split at non-letters/digits). */
export function shingleHashes(text: string): Uint32Array {
  const words = text.toLowerCase().split(WORD).filter(Boolean).map(fnv1a);
  const n = Math.max(0, words.length - 2);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = fmix32(Math.imul(fmix32(Math.imul(words[i]!, 31) ^ words[i + 1]!), 31) ^ words[i + 2]!);
  out.sort();
  let k = 0;
  for (let i = 0; i < n; i++) if (i === 0 || out[i] !== out[i - 1]) out[k++] = out[i]!;
  return out.subarray(0, k);
}

/** Jaccard similarity of two sorted, distinct hash arrays (two empty sets are equal). */
export function sortedJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/** Hashes per signature at most: computing them is most of the cost for short texts. */
const MAX_HASHES = 80;
const MISS = 1e-6;

/**
 * Rows per band and bands: the fewest bands that find a pair at the threshold with P ≥ 1 − 1e-6, with the
 * most rows (the fewest false candidates) that fit in MAX_HASHES.
 */
export function banding(threshold: number): { rows: number; bands: number } {
  for (let rows = 8; rows >= 1; rows--) {
    const hit = threshold ** rows;
    const bands = hit >= 1 ? 1 : Math.ceil(Math.log(MISS) / Math.log(1 - hit));
    if (rows * bands <= MAX_HASHES) return { rows, bands };
  }
  // Thresholds under ~0.16 need more single-row bands; past 256 (thresholds under 0.053) a pair at the
  // threshold is missed more often than 1e-6.
  return { rows: 1, bands: Math.min(256, Math.ceil(Math.log(MISS) / Math.log(1 - threshold))) };
}

/**
 * Kept texts, each in a group (records are only near-duplicates of their own group): `admit` tells whether
 * a text is a near-duplicate of one already kept in its group — Jaccard of shingles ≥ the threshold — and
 * keeps it otherwise. Call it in the order that decides which of two near-duplicates stays.
 */
export class NearDuplicateIndex {
  readonly #threshold: number;
  readonly #rows: number;
  readonly #bands: number;
  readonly #seeds: Uint32Array;
  readonly #multipliers: Uint32Array;
  /** Per (band, bucket key): the last kept entry; `#next` chains to the one before in the same bucket. */
  readonly #heads = new BucketHeads();
  #next = new Int32Array(1024);
  #groups = new Int32Array(64);
  #offsets = new Int32Array(65);
  #shingles = new Uint32Array(1024);
  #kept = 0;
  /** Entries compared exactly (for the bench: the work LSH leaves). */
  comparisons = 0;

  constructor(threshold: number) {
    if (!(threshold > 0 && threshold <= 1)) throw new Error("the near-duplicate threshold must be in (0, 1]");
    this.#threshold = threshold;
    ({ rows: this.#rows, bands: this.#bands } = banding(threshold));
    // Per hash function an xor and an odd multiplier: x ↦ ((x ⊕ s)·m) ⊕ (… ≫ 15) is a bijection of 32-bit words.
    this.#seeds = Uint32Array.from({ length: this.#rows * this.#bands }, (_, i) => fmix32(0x9e3779b9 + Math.imul(i + 1, 0x7f4a7c15)));
    this.#multipliers = Uint32Array.from({ length: this.#rows * this.#bands }, (_, i) => fmix32(0x85ebca6b ^ Math.imul(i + 1, 0xc2b2ae35)) | 1);
  }

  get kept(): number {
    return this.#kept;
  }

  /** True when `shingles` (from `shingleHashes`) nearly duplicate a kept entry of `group`; otherwise keeps them. */
  admit(group: number, shingles: Uint32Array): boolean {
    const keys = this.#bandKeys(group, shingles);
    const seen = new Set<number>();
    for (let b = 0; b < this.#bands; b++) {
      for (let e = this.#heads.get(b, keys[b]!); e >= 0; e = this.#next[e * this.#bands + b]!) {
        if (seen.has(e) || this.#groups[e] !== group) continue;
        seen.add(e);
        this.comparisons++;
        if (sortedJaccard(this.#shingles.subarray(this.#offsets[e]!, this.#offsets[e + 1]!), shingles) >= this.#threshold) return true;
      }
    }
    this.#keep(group, shingles, keys);
    return false;
  }

  /** One bucket key per band: the band's minhash rows and the group, mixed; the band index keeps bands apart. */
  #bandKeys(group: number, shingles: Uint32Array): Uint32Array {
    const k = this.#rows * this.#bands;
    const mins = new Uint32Array(k).fill(0xffffffff);
    for (let s = 0; s < shingles.length; s++) {
      const x = shingles[s]!;
      for (let i = 0; i < k; i++) {
        let h = Math.imul(x ^ this.#seeds[i]!, this.#multipliers[i]!);
        h = (h ^ (h >>> 15)) >>> 0;
        if (h < mins[i]!) mins[i] = h;
      }
    }
    const keys = new Uint32Array(this.#bands);
    for (let b = 0; b < this.#bands; b++) {
      let h = fmix32(group ^ Math.imul(b + 1, 0x27d4eb2d));
      for (let r = 0; r < this.#rows; r++) h = fmix32(Math.imul(h, 31) ^ mins[b * this.#rows + r]!);
      keys[b] = h;
    }
    return keys;
  }

  #keep(group: number, shingles: Uint32Array, keys: Uint32Array): void {
    const e = this.#kept++;
    if (e >= this.#groups.length) {
      this.#groups = grow(this.#groups, e + 1);
      this.#offsets = grow(this.#offsets, e + 2);
    }
    if ((e + 1) * this.#bands > this.#next.length) this.#next = grow(this.#next, (e + 1) * this.#bands);
    const start = this.#offsets[e]!;
    if (start + shingles.length > this.#shingles.length) this.#shingles = grow(this.#shingles, start + shingles.length);
    this.#shingles.set(shingles, start);
    this.#offsets[e + 1] = start + shingles.length;
    this.#groups[e] = group;
    for (let b = 0; b < this.#bands; b++) {
      this.#next[e * this.#bands + b] = this.#heads.get(b, keys[b]!);
      this.#heads.set(b, keys[b]!, e);
    }
  }
}

/**
 * (band, 32-bit key) → entry, open addressing with linear probing in typed arrays: a Map holding tens of
 * millions of bucket heads would take several times the memory.
 */
class BucketHeads {
  #keys = new Uint32Array(1 << 12);
  #bands = new Uint8Array(1 << 12);
  /** −1: empty slot. */
  #values = new Int32Array(1 << 12).fill(-1);
  #size = 0;

  #slot(band: number, key: number): number {
    const mask = this.#keys.length - 1;
    let i = fmix32(key ^ Math.imul(band, 0x9e3779b1)) & mask;
    while (this.#values[i] !== -1 && (this.#keys[i] !== key || this.#bands[i] !== band)) i = (i + 1) & mask;
    return i;
  }

  get(band: number, key: number): number {
    return this.#values[this.#slot(band, key)]!;
  }

  set(band: number, key: number, value: number): void {
    let i = this.#slot(band, key);
    if (this.#values[i] === -1) {
      if (2 * (this.#size + 1) > this.#keys.length) {
        this.#rehash();
        i = this.#slot(band, key);
      }
      this.#size++;
      this.#keys[i] = key;
      this.#bands[i] = band;
    }
    this.#values[i] = value;
  }

  #rehash(): void {
    const [keys, bands, values] = [this.#keys, this.#bands, this.#values];
    this.#keys = new Uint32Array(keys.length * 2);
    this.#bands = new Uint8Array(keys.length * 2);
    this.#values = new Int32Array(keys.length * 2).fill(-1);
    for (let i = 0; i < keys.length; i++) {
      if (values[i] === -1) continue;
      const j = this.#slot(bands[i]!, keys[i]!);
      this.#keys[j] = keys[i]!;
      this.#bands[j] = bands[i]!;
      this.#values[j] = values[i]!;
    }
  }
}

function grow<T extends Int32Array | Uint32Array>(a: T, atLeast: number): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(atLeast, a.length * 2));
  next.set(a);
  return next;
}
