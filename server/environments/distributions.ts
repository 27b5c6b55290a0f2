// Derived task distributions: a published distribution narrowed to some values of one attribute (one
// task family, e.g. only billing intents). A derived distribution is a new version with its own digest,
// so held-out sets, receipts and evaluation pin it like any other.
import { digestOf } from "@/server/digest";
import type { TaskDistribution } from "./types";
import { ownValue } from "@/lib/own";

/**
 * Derived distributions made in this process, by digest, so evaluation can resolve a pinned one again.
 * Derivation is deterministic: a process that evaluates a held-out set over a derived distribution
 * derives it once first (e.g. `deskDomainDistribution(base, domain)`) and gets the same digest.
 */
const derived = new Map<string, TaskDistribution>();

/** A distribution by digest: one of the environment's own, or one derived from them in this process. */
export function resolveDistribution(own: readonly TaskDistribution[], digest: string): TaskDistribution | undefined {
  return own.find((d) => d.digest === digest) ?? derived.get(digest);
}

export function subDistribution(base: TaskDistribution, attribute: string, values: readonly string[], label: string): TaskDistribution {
  const weights = ownValue(base.mix, attribute);
  if (!weights) throw new Error(`distribution ${base.version} has no attribute "${attribute}"`);
  const kept = Object.fromEntries(values.filter((v) => (ownValue(weights, v) ?? 0) > 0).map((v) => [v, weights[v]!]));
  if (Object.keys(kept).length === 0) throw new Error(`distribution ${base.version} gives no weight to any of ${attribute} = ${values.join(", ")}`);
  const content = {
    environment: base.environment,
    version: `${base.version}/${label}`,
    title: `${base.title} — only ${attribute} ∈ {${Object.keys(kept).join(", ")}}`,
    mix: { ...base.mix, [attribute]: kept },
  };
  const dist = { ...content, digest: digestOf(content) };
  derived.set(dist.digest, dist);
  return dist;
}
