// Task-specific fine-tuning: specialise a general parent policy on one domain's demonstrations while
// preserving what it can do elsewhere. Preservation is a penalty towards the parent's weights — plain
// L2, or EWC (Kirkpatrick et al., 2017) with the parent's exact Fisher diagonal over the other domains'
// states, so the weights that matter for them move least. The report measures it: imitation accuracy
// on the target domain and on every other domain, before and after, and retention = after / before.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { requireRecords, softmaxFamily, type AnyEnvironment } from "../family";
import { filterByQuality, imitationItems, qualityFilterSchema } from "./examples";
import { fisherDiagonal, type Item } from "./objective";
import { fitConfigShape, SoftmaxFitter, type FitterState } from "./fitter";
import { FitterSession } from "./session";

export const preserveSchema = z
  .object({
    method: z.enum(["none", "l2", "ewc"], { error: 'preserve.method must be "none", "l2" or "ewc"' }).default("ewc"),
    /** λ of the penalty λ/2 · Σ F_i (w_i − w_parent,i)² (F = 1 for l2). */
    strength: z.number().min(0, "strength must be ≥ 0").max(1e6, "strength must be ≤ 1e6").default(20),
    /** At most this many general states estimate the Fisher diagonal (evenly spaced, deterministic). */
    fisherSamples: z.number().int("fisherSamples must be an integer").min(1, "fisherSamples must be ≥ 1").default(2000),
  })
  .strict();

export const fineTuneConfigSchema = z
  .object({
    ...fitConfigShape,
    /** The domain (records' `domain`) to specialise in. */
    domain: z.string({ error: "domain is required: the records' domain to fine-tune on" }).min(1, "domain must not be empty"),
    preserve: preserveSchema.prefault({}),
    qualityFiltering: qualityFilterSchema.prefault({}),
  })
  .strict();
export type FineTuneConfig = z.output<typeof fineTuneConfigSchema>;

/** Evenly spaced subset of at most n elements (deterministic). */
export function evenly<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

/** The anchor that preserves general ability: none, L2 to the parent, or EWC with the parent's Fisher on `general` states. */
export function preservationAnchor(parent: Float64Array, nA: number, general: readonly Float64Array[], p: z.output<typeof preserveSchema>) {
  if (p.method === "none" || p.strength === 0) return null;
  if (p.method === "l2") return { center: parent, strength: p.strength, fisher: null };
  if (general.length === 0) throw new Error("EWC needs general states (demonstrations of other domains) to estimate the Fisher information");
  return { center: parent, strength: p.strength, fisher: fisherDiagonal(parent, evenly(general, p.fisherSamples), nA) };
}

/** Imitation accuracy of weights per domain over demonstrations. */
export function accuracyByDomain(env: AnyEnvironment, weights: Float64Array, demos: readonly Demonstration[], fitterFor: (items: Item[]) => SoftmaxFitter): Record<string, number> {
  const domains = [...new Set(demos.map((d) => d.domain))].sort();
  return Object.fromEntries(
    domains.map((d) => {
      const items = imitationItems(env, demos.filter((x) => x.domain === d), "uniform");
      return [d, fitterFor(items).evaluate(items, weights).accuracy ?? 0];
    }),
  );
}

/** Imitation accuracy per domain before (parent) and after, and retention on the domains not tuned on. */
function retentionReport(env: AnyEnvironment, domain: string, demos: readonly Demonstration[], fitter: SoftmaxFitter, before: Record<string, number>) {
  const after = accuracyByDomain(env, fitter.weights(), demos, () => fitter);
  const others = Object.keys(after).filter((d) => d !== domain);
  const retention = Object.fromEntries(others.map((d) => [d, before[d]! > 0 ? after[d]! / before[d]! : 1]));
  const values = Object.values(retention);
  return { domain, accuracyBefore: before, accuracyAfter: after, targetGain: after[domain]! - before[domain]!, retention, meanRetention: values.length ? values.reduce((a, b) => a + b, 0) / values.length : 1 };
}

export const fineTuneFamily = softmaxFamily({
  name: "fine-tune",
  description: "Specialises a general policy on one domain, preserving the others with an L2-to-parent or EWC penalty; reports retention.",
  configSchema: fineTuneConfigSchema,
  reads: ["demonstration"],
  start(init, state) {
    const cfg = init.config;
    const all = filterByQuality(requireRecords("fine-tune", init.data, "demonstration"), cfg.qualityFiltering).kept;
    const target = all.filter((d) => d.domain === cfg.domain);
    const others = all.filter((d) => d.domain !== cfg.domain);
    if (target.length === 0) throw new Error(`fine-tune: no demonstrations of domain "${cfg.domain}" (domains: ${[...new Set(all.map((d) => d.domain))].sort().join(", ")})`);
    const nA = init.environment.actions.length;
    const parent = Float64Array.from(init.parent.weights);
    const general = imitationItems(init.environment, others, "uniform").map((i) => (i.kind === "ce" ? i.x : new Float64Array(0)));
    const anchor = preservationAnchor(parent, nA, general, cfg.preserve);
    const fitter = new SoftmaxFitter({ nA, weights: parent, items: imitationItems(init.environment, target, "uniform"), config: cfg, seed: init.seed, anchor }, state as FitterState | undefined);
    const before = accuracyByDomain(init.environment, parent, all, () => fitter);
    return new FitterSession("fine-tune", init.parent, fitter, () => ({ preserve: cfg.preserve.method, ...retentionReport(init.environment, cfg.domain, all, fitter, before) }));
  },
});
