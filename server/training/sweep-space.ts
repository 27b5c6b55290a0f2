// A sweep's config space: parameters by dotted path into the family's config, each a list of values or a
// numeric range. A grid takes every combination (a range as `points` evenly spaced values, log-spaced
// when asked); a random sweep draws `samples` configs (values uniformly, ranges uniformly or log-uniformly),
// seeded, so the same request always names the same configs. Paths are checked as names (no `__proto__`),
// and every config is then validated by the family's own schema before any run is recorded.
import { z } from "zod";
import { ownValue } from "@/lib/own";
import { Rng } from "@/server/environments/prng";
import { badInput } from "@/server/errors";

const path = z
  .string()
  .max(100, "path must be at most 100 characters")
  .regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/, "path must be config keys joined by dots (letters and digits, e.g. ppo.learningRate)");
const finite = z.number().refine(Number.isFinite, "must be a finite number");
const scalar = z.union([finite, z.string().max(100, "a value must be at most 100 characters"), z.boolean()]);

export const ZSweepParam = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("values"), path, values: z.array(scalar).min(1, "values: give at least one").max(20, "values: at most 20") }).strict(),
  z
    .object({
      kind: z.literal("range"),
      path,
      min: finite,
      max: finite,
      scale: z.enum(["linear", "log"]).default("linear"),
      integer: z.boolean().default(false),
      /** Grid points for this range (grid sweeps). */
      points: z.number().int().min(2, "points must be ≥ 2").max(10, "points must be ≤ 10").default(3),
    })
    .strict()
    .refine((r) => r.max > r.min, { path: ["max"], message: "max must be greater than min" })
    .refine((r) => r.scale !== "log" || r.min > 0, { path: ["min"], message: "a log range needs min > 0" }),
]);
export type SweepParam = z.output<typeof ZSweepParam>;

export const ZSweepSpace = z
  .object({
    mode: z.enum(["grid", "random"]),
    params: z
      .array(ZSweepParam)
      .min(1, "params: sweep at least one parameter")
      .max(6, "params: at most 6")
      .refine((ps) => new Set(ps.map((p) => p.path)).size === ps.length, "params: each path at most once"),
    /** Configs a random sweep draws. */
    samples: z.number().int().min(1, "samples must be ≥ 1").max(32, "samples must be ≤ 32").default(8),
  })
  .strict();
export type SweepSpace = z.output<typeof ZSweepSpace>;

/** Most configs one sweep may name (each is trained once per seed). */
export const MAX_CONFIGS = 32;

export type SweepPoint = { label: string; values: [string, unknown][]; config: Record<string, unknown> };

const round = (v: number) => Number(v.toPrecision(6));

function gridValues(p: SweepParam): unknown[] {
  if (p.kind === "values") return p.values;
  return Array.from({ length: p.points }, (_, i) => {
    const f = i / (p.points - 1);
    const v = p.scale === "log" ? Math.exp(Math.log(p.min) + f * (Math.log(p.max) - Math.log(p.min))) : p.min + f * (p.max - p.min);
    return p.integer ? Math.round(v) : round(v);
  }).filter((v, i, all) => all.indexOf(v) === i);
}

function draw(p: SweepParam, rng: Rng): unknown {
  if (p.kind === "values") return p.values[rng.int(p.values.length)];
  const f = rng.next();
  const v = p.scale === "log" ? Math.exp(Math.log(p.min) + f * (Math.log(p.max) - Math.log(p.min))) : p.min + f * (p.max - p.min);
  return p.integer ? Math.round(v) : round(v);
}

/** `base` with `value` at the dotted path, copying every object on the way (the base is never changed). */
export function withPath(base: Record<string, unknown>, dotted: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = dotted.split(".");
  const inner = ownValue(base, head!);
  const next = rest.length === 0 ? value : withPath(inner !== null && typeof inner === "object" && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {}, rest.join("."), value);
  // defineProperty: an own data property whatever the name, never a prototype setter.
  const out = { ...base };
  Object.defineProperty(out, head!, { value: next, enumerable: true, writable: true, configurable: true });
  return out;
}

const labelOf = (values: [string, unknown][]) => values.map(([p, v]) => `${p}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" · ");

/** The configs a space names, in a stable order (grid: the last parameter varies fastest). */
export function expandSpace(base: Record<string, unknown>, space: SweepSpace, seed: string): SweepPoint[] {
  let combos: [string, unknown][][];
  if (space.mode === "grid") {
    combos = [[]];
    for (const p of space.params) combos = combos.flatMap((c) => gridValues(p).map((v): [string, unknown][] => [...c, [p.path, v]]));
    if (combos.length > MAX_CONFIGS) throw badInput("space", `the grid names ${combos.length} configs; at most ${MAX_CONFIGS} (fewer values or points)`);
  } else {
    const rng = Rng.from(`${seed}/sweep-space`);
    const seen = new Set<string>();
    combos = [];
    // Distinct draws only: a discrete space smaller than `samples` gives fewer configs.
    for (let tries = 0; combos.length < space.samples && tries < space.samples * 50; tries++) {
      const c = space.params.map((p): [string, unknown] => [p.path, draw(p, rng)]);
      const key = JSON.stringify(c);
      if (seen.has(key)) continue;
      seen.add(key);
      combos.push(c);
    }
  }
  return combos.map((values) => ({ label: labelOf(values), values, config: values.reduce((c, [p, v]) => withPath(c, p, v), base) }));
}
