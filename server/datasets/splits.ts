// Stratified train / validation / test splits, deterministic for a seed: records are grouped by a
// stratum (default: kind and domain), each stratum is shuffled with its own named stream and divided by
// the largest-remainder method, so every stratum keeps the requested proportions within one record.
import { Rng } from "@/server/environments/prng";
import type { DatasetRecord } from "./records";

export type SplitShares = { train: number; validation: number; test: number };
export type Split = { train: string[]; validation: string[]; test: string[]; strata: Record<string, { train: number; validation: number; test: number }> };

export function defaultStratum(r: DatasetRecord): string {
  return "domain" in r ? `${r.kind}/${r.domain}` : r.kind;
}

export function stratifiedSplit(records: readonly DatasetRecord[], shares: SplitShares, seed: string, stratumOf: (r: DatasetRecord) => string = defaultStratum): Split {
  const total = shares.train + shares.validation + shares.test;
  if ([shares.train, shares.validation, shares.test].some((s) => s < 0) || Math.abs(total - 1) > 1e-9) throw new Error("split shares must be ≥ 0 and add up to 1");
  const strata = new Map<string, string[]>();
  for (const r of records) strata.set(stratumOf(r), [...(strata.get(stratumOf(r)) ?? []), r.id]);
  const out: Split = { train: [], validation: [], test: [], strata: {} };
  for (const name of [...strata.keys()].sort()) {
    const ids = Rng.from(`${seed}/split/${name}`).shuffle([...strata.get(name)!].sort());
    const n = ids.length;
    const exact = [shares.train * n, shares.validation * n, shares.test * n];
    const counts = exact.map(Math.floor);
    // Largest remainder: hand the leftover records to the parts with the biggest fractional parts.
    const order = [0, 1, 2].sort((a, b) => exact[b]! - counts[b]! - (exact[a]! - counts[a]!) || a - b);
    for (let k = 0; counts.reduce((a, b) => a + b, 0) < n; k++) counts[order[k]!]!++;
    const [t, v] = counts as [number, number, number];
    // Element by element: spreading a stratum of 150k+ ids into push overflows the call stack.
    ids.forEach((id, i) => (i < t ? out.train : i < t + v ? out.validation : out.test).push(id));
    out.strata[name] = { train: t, validation: v, test: n - t - v };
  }
  return out;
}
