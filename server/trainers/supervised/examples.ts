// Preparing demonstrations for supervised learning: quality filtering (drop demonstrations below a
// quality score), diversity sampling (spread a budget over distinct situations instead of repeating
// the common ones) and turning steps into weighted imitation items.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { Rng } from "@/server/environments/prng";
import { actionIndexer, featuresOf, type AnyEnvironment } from "../family";
import type { Item } from "./objective";

export const qualityFilterSchema = z
  .object({
    enabled: z.boolean().default(true),
    minQuality: z.number().min(0, "minQuality must be ≥ 0").max(1, "minQuality must be ≤ 1").default(0.7),
  })
  .strict();

export const diversitySamplingSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** How many demonstrations to keep at most. */
    budget: z.number().int("budget must be an integer").min(1, "budget must be ≥ 1").default(500),
  })
  .strict();

export function filterByQuality(demos: readonly Demonstration[], f: z.output<typeof qualityFilterSchema>): { kept: Demonstration[]; dropped: number } {
  if (!f.enabled) return { kept: [...demos], dropped: 0 };
  const kept = demos.filter((d) => d.quality >= f.minQuality);
  return { kept, dropped: demos.length - kept.length };
}

/** What situation a demonstration shows: its states and actions, step by step. */
export function situationOf(d: Demonstration): string {
  return d.steps.map((s) => `${s.key}>${s.action}`).join(" ");
}

/**
 * Spreads `budget` over distinct situations: demonstrations are grouped by situation, each group
 * shuffled (seeded), and groups are taken round-robin — rarest situations first — until the budget
 * is spent. Uniform sampling would instead spend the budget in proportion to how common a situation is.
 */
export function diversitySample(demos: readonly Demonstration[], budget: number, seed: string): Demonstration[] {
  const rng = Rng.from(`${seed}/diversity`);
  const groups = new Map<string, Demonstration[]>();
  for (const d of [...demos].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const k = situationOf(d);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(d);
  }
  const ordered = [...groups.entries()].sort((a, b) => a[1].length - b[1].length || (a[0] < b[0] ? -1 : 1)).map(([, g]) => rng.shuffle(g));
  const out: Demonstration[] = [];
  for (let round = 0; out.length < budget; round++) {
    let took = false;
    for (const g of ordered) {
      if (round < g.length && out.length < budget) {
        out.push(g[round]!);
        took = true;
      }
    }
    if (!took) break;
  }
  return out;
}

/** One imitation item per step, grouped by demonstration; weighted by quality when asked. */
export function imitationItems(env: AnyEnvironment, demos: readonly Demonstration[], weighting: "uniform" | "quality"): Item[] {
  const indexOf = actionIndexer(env);
  return demos.flatMap((d) =>
    d.steps.map((s, i): Item => ({ kind: "ce", x: featuresOf(env, s.features, `demonstration ${d.id} step ${i}`), y: indexOf(s.action), w: weighting === "quality" ? d.quality : 1, group: d.id })),
  );
}
