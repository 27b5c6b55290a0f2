// The gate core's one pseudo-random generator (mulberry32): seeded, so the same receipt always gives the same
// result on every machine — for the reference fixture's evidence and bench/check4.ts's simulated receipts.
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
