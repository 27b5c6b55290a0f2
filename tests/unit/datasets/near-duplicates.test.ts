// Near-duplicate detection through MinHash + LSH finds what comparing every pair finds, and its exact
// comparisons grow linearly with the records, not quadratically (bench/datasets.ts times a million).
import { describe, expect, it } from "vitest";
import { deduplicate } from "@/server/datasets/pipeline";
import { banding, NearDuplicateIndex, shingleHashes, sortedJaccard } from "@/server/datasets/near-duplicates";
import type { Feedback } from "@/server/datasets/records";
import { Rng } from "@/server/environments/prng";

const VOCAB = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}`);

/** Texts from templates of `length` words with up to four replaced: variants straddle any threshold. */
function texts(n: number, templates: number, seed: string, length = 40): string[] {
  const rng = Rng.from(seed);
  const bases = Array.from({ length: templates }, () => Array.from({ length }, () => VOCAB[rng.int(VOCAB.length)]!));
  return Array.from({ length: n }, () => {
    const words = [...bases[rng.int(templates)]!];
    for (let k = rng.int(5); k > 0; k--) words[rng.int(words.length)] = VOCAB[rng.int(VOCAB.length)]!;
    return words.join(" ");
  });
}

/** n texts of 14 random words: no two are near-duplicates. */
const distinct = (n: number, seed: string) => {
  const rng = Rng.from(seed);
  return Array.from({ length: n }, () => Array.from({ length: 14 }, () => VOCAB[rng.int(VOCAB.length)]!).join(" "));
};

const fb = (i: number, text: string, interaction: string): Feedback => ({ kind: "feedback", id: `f-${String(i).padStart(6, "0")}`, interactionId: interaction, raterId: "r", credibility: 1, givenAt: "2026-03-01T00:00:00.000Z", rating: 4, preferredOver: null, correction: null, suggestions: [], text });

/** The definition, pair by pair: what the pipeline did before LSH (string shingles, every kept record). */
function bruteForce(records: readonly Feedback[], threshold: number): string[] {
  const shingles = (t: string) => {
    const w = t.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    return new Set(w.slice(0, Math.max(0, w.length - 2)).map((_, i) => w.slice(i, i + 3).join(" ")));
  };
  const jaccard = (a: Set<string>, b: Set<string>) => {
    let inter = 0;
    for (const x of a) if (b.has(x)) inter++;
    return inter / (a.size + b.size - inter);
  };
  const kept: { r: Feedback; sh: Set<string> }[] = [];
  const exact = new Set<string>();
  for (const r of [...records].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const key = `${r.interactionId}\u0000${r.text}`;
    if (exact.has(key)) continue;
    exact.add(key);
    const sh = shingles(r.text);
    if (kept.some((k) => k.r.interactionId === r.interactionId && jaccard(k.sh, sh) >= threshold)) continue;
    kept.push({ r, sh });
  }
  return kept.map((k) => k.r.id);
}

describe("near-duplicate detection (MinHash + LSH)", () => {
  it("keeps exactly the records comparing every pair keeps, at several thresholds", () => {
    const t = [...texts(1_200, 40, "nd"), ...texts(300, 20, "nd-short", 12)];
    const records = t.map((text, i) => fb(i, text, `int-${i % 3}`));
    for (const threshold of [0.3, 0.6, 0.85]) {
      const r = deduplicate(records, threshold);
      expect(r.records.map((x) => x.id), `threshold ${threshold}`).toEqual(bruteForce(records, threshold));
      expect(r.details.nearDuplicates, `threshold ${threshold}`).toBeGreaterThan(0);
    }
  });

  it("compares each record exactly with a bounded number of kept ones: linear, not quadratic, work", () => {
    // All distinct texts in one group: comparing every pair would be n²/2 Jaccards.
    const work = (n: number) => {
      const index = new NearDuplicateIndex(0.85);
      for (const text of distinct(n, `lin-${n}`)) index.admit(0, shingleHashes(text));
      return { kept: index.kept, comparisons: index.comparisons };
    };
    const small = work(4_000);
    const large = work(16_000);
    expect(large.kept).toBe(16_000);
    expect(large.comparisons).toBeLessThan(0.01 * 16_000 * 16_000);
    // Four times the records, about four times the comparisons (quadratic would be sixteen).
    expect(large.comparisons / Math.max(1, small.comparisons)).toBeLessThan(6);
  });

  it("chooses bands that miss a pair at the threshold with probability below 1e-6", () => {
    for (const t of [0.06, 0.1, 0.2, 0.5, 0.85, 0.95, 1]) {
      const { rows, bands } = banding(t);
      expect(rows * bands).toBeLessThanOrEqual(t < 0.2 ? 256 : 80);
      expect((1 - t ** rows) ** bands).toBeLessThanOrEqual(1e-6);
    }
    // The default threshold: 19 bands of 4 rows (76 hashes); a pair at 0.5 becomes a candidate 71 % of the time, at 0.3 15 %.
    expect(banding(0.85)).toEqual({ rows: 4, bands: 19 });
  });

  it("hashes shingles like the definition: distinct 3-word windows, case and punctuation ignored", () => {
    expect(shingleHashes("A b, c d!").length).toBe(2);
    expect(shingleHashes("a b c a b c").length).toBe(3);
    expect(shingleHashes("a b")).toHaveLength(0);
    expect(sortedJaccard(shingleHashes("one two three four"), shingleHashes("ONE two three five"))).toBeCloseTo(1 / 3, 12);
    expect(sortedJaccard(new Uint32Array(), new Uint32Array())).toBe(1);
  });
});
