// The preprocessing pipeline a snapshot's records go through, each step pure and deterministic, each
// reporting how many records went in and out (that report becomes the snapshot's lineage):
// clean → quality filter → deduplicate (exact + near-duplicate) → anonymize (PII) → augment.
import { z } from "zod";
import { canonicalJson } from "@/server/digest";
import { Rng } from "@/server/environments/prng";
import type { Environment } from "@/server/environments/types";
import { NearDuplicateIndex, shingleHashes } from "./near-duplicates";
import { redactPii, PII_TYPES } from "./pii";
import type { DatasetRecord } from "./records";
import type { PipelineStepReport } from "./snapshot";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEnvironment = Environment<any, any>;

export const pipelineStepSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("clean") }).strict(),
  z
    .object({
      step: z.literal("quality-filter"),
      minQuality: z.number().min(0, "minQuality must be ≥ 0").max(1, "minQuality must be ≤ 1").default(0.7),
      minCredibility: z.number().min(0, "minCredibility must be ≥ 0").max(1, "minCredibility must be ≤ 1").default(0),
    })
    .strict(),
  z
    .object({
      step: z.literal("deduplicate"),
      /** Word-shingle Jaccard similarity of texts at or above which two records are near-duplicates. */
      nearDuplicateThreshold: z.number().gt(0, "nearDuplicateThreshold must be > 0").max(1, "nearDuplicateThreshold must be ≤ 1").default(0.85),
    })
    .strict(),
  z.object({ step: z.literal("anonymize") }).strict(),
  z
    .object({
      step: z.literal("augment"),
      /** Noisy copies added per demonstration (Gaussian noise σ on every feature of every step). */
      copies: z.number().int("copies must be an integer").min(1, "copies must be ≥ 1").max(20, "copies must be ≤ 20").default(1),
      noise: z.number().gt(0, "noise must be > 0").max(1, "noise must be ≤ 1").default(0.05),
      seed: z.string().min(1).default("augment"),
    })
    .strict(),
]);
export type PipelineStep = z.input<typeof pipelineStepSchema>;

const textOf = (r: DatasetRecord) => r.text;
const withText = <R extends DatasetRecord>(r: R, text: string): R => ({ ...r, text });

/** Cleaning: text normalised (NFKC, control characters out, whitespace collapsed); records that do not fit the environment dropped. */
export function clean(records: readonly DatasetRecord[], env?: AnyEnvironment): { records: DatasetRecord[]; details: Record<string, number> } {
  const actions = env ? new Set(env.actions.map((a) => a.name)) : null;
  let unfit = 0;
  let normalised = 0;
  const out: DatasetRecord[] = [];
  for (const r of records) {
    // eslint-disable-next-line no-control-regex
    const text = textOf(r).normalize("NFKC").replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, "").replace(/[ \t]+/g, " ").replace(/\s*\n\s*/g, "\n").trim();
    if (text !== textOf(r)) normalised++;
    if (env) {
      const nF = env.featureNames.length;
      const steps = r.kind === "demonstration" || r.kind === "interaction" ? r.steps : [];
      const bad = steps.some((s) => s.features.length !== nF || !actions!.has(s.action)) || (r.kind === "task" && r.features.length !== nF);
      if (bad) {
        unfit++;
        continue;
      }
    }
    out.push(withText(r, text));
  }
  return { records: out, details: { textNormalised: normalised, droppedUnfit: unfit } };
}

export function qualityFilter(records: readonly DatasetRecord[], minQuality: number, minCredibility: number) {
  const out = records.filter((r) => (r.kind !== "demonstration" || r.quality >= minQuality) && (r.kind !== "feedback" || r.credibility >= minCredibility));
  return { records: out, details: { droppedLowQuality: records.length - out.length } };
}

/**
 * Exact duplicates: same content apart from the id. Near duplicates: same kind and behaviour (steps'
 * states and actions, or task attributes) with texts whose 3-word-shingle Jaccard similarity reaches
 * the threshold (texts under five words only count as equal when identical). The lowest id is kept.
 * Near-duplicates are found through MinHash + LSH buckets (near-duplicates.ts), so a record is compared
 * only with kept records of its own behaviour that share a bucket: ~linear in the records.
 */
export function deduplicate(records: readonly DatasetRecord[], threshold: number) {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : 1));
  const seen = new Set<string>();
  const shapes = new Map<string, number>();
  const index = new NearDuplicateIndex(threshold);
  const kept: DatasetRecord[] = [];
  let exact = 0;
  let near = 0;
  for (const r of sorted) {
    const { id: _id, text, ...rest } = r;
    // Everything but the text, canonical; with the text it is the record's content apart from its id.
    const restJson = canonicalJson(rest);
    const key = `${restJson}\u0000${text}`;
    if (seen.has(key)) {
      exact++;
      continue;
    }
    seen.add(key);
    const words = text.split(/\s+/).filter(Boolean).length;
    if (words >= 5) {
      const shape = "steps" in rest ? canonicalJson({ kind: r.kind, steps: rest.steps.map((s) => [s.key, s.action]) }) : restJson;
      let group = shapes.get(shape);
      if (group === undefined) shapes.set(shape, (group = shapes.size));
      if (index.admit(group, shingleHashes(text))) {
        near++;
        continue;
      }
    }
    kept.push(r);
  }
  return { records: kept, details: { exactDuplicates: exact, nearDuplicates: near } };
}

export function anonymize(records: readonly DatasetRecord[]) {
  const totals = Object.fromEntries(PII_TYPES.map((t) => [t, 0])) as Record<string, number>;
  let touched = 0;
  const out = records.map((r) => {
    const { text, counts } = redactPii(r.text);
    for (const t of PII_TYPES) totals[t]! += counts[t];
    if (text !== r.text) touched++;
    return withText(r, text);
  });
  return { records: out, details: { recordsRedacted: touched, ...Object.fromEntries(Object.entries(totals).map(([k, v]) => [`redacted.${k}`, v])) } };
}

/** Adds noisy copies of each demonstration (ids `<id>~aug<k>`); other records pass through. */
export function augment(records: readonly DatasetRecord[], copies: number, noise: number, seed: string) {
  const out: DatasetRecord[] = [...records];
  let added = 0;
  for (const r of records) {
    if (r.kind !== "demonstration") continue;
    const rng = Rng.from(`${seed}/${r.id}`);
    for (let k = 1; k <= copies; k++) {
      out.push({ ...r, id: `${r.id}~aug${k}`, steps: r.steps.map((s) => ({ ...s, features: s.features.map((f) => f + noise * gaussianFrom(rng)) })) });
      added++;
    }
  }
  return { records: out, details: { augmented: added } };
}

function gaussianFrom(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/** Runs the steps in order; returns the records and one report per step for the snapshot's lineage. */
export function runPipeline(records: readonly DatasetRecord[], steps: readonly PipelineStep[], env?: AnyEnvironment): { records: DatasetRecord[]; reports: PipelineStepReport[] } {
  let current = [...records];
  const reports: PipelineStepReport[] = [];
  steps.forEach((input, i) => {
    const parsed = pipelineStepSchema.safeParse(input);
    if (!parsed.success) throw new Error(`pipeline step ${i}: ${parsed.error.issues.map((x) => `${x.path.join(".") || "step"}: ${x.message}`).join("; ")}`);
    const s = parsed.data;
    const before = current.length;
    const r =
      s.step === "clean" ? clean(current, env)
      : s.step === "quality-filter" ? qualityFilter(current, s.minQuality, s.minCredibility)
      : s.step === "deduplicate" ? deduplicate(current, s.nearDuplicateThreshold)
      : s.step === "anonymize" ? anonymize(current)
      : augment(current, s.copies, s.noise, s.seed);
    current = r.records;
    const { step, ...params } = s;
    reports.push({ step, params, in: before, out: current.length, details: r.details });
  });
  return { records: current, reports };
}
