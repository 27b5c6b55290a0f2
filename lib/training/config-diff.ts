// The compare page's config table: every key of the runs' configs as a dotted path (nested settings flattened:
// `ppo.learningRate`, `layers[0]`), each run's value, and whether the runs differ there — the keys that differ
// are what a sweep or a restore changed. Values compare by stable JSON (key order never counts as a difference)
// and secrets are masked as in any JSON diff (lib/json/diff.ts). Pure.
import { flattenLeaves } from "@/lib/json/diff";

export type ConfigDiffRow = {
  path: string;
  /** One per run, in the runs' order: the value as shown, or null when that run's config lacks the key. */
  values: (string | null)[];
  /** True when any two runs hold different values here, or some run lacks the key. */
  differs: boolean;
};
export type ConfigDiff = { rows: ConfigDiffRow[]; differing: number };

const isEmptyObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;

export function configDiff(configs: readonly unknown[]): ConfigDiff {
  // An empty config has no keys (flattened alone, it would be one "(root)" leaf).
  const flat = configs.map((c) => (isEmptyObject(c) ? new Map<string, never>() : flattenLeaves(c)));
  const paths = [...new Set(flat.flatMap((f) => [...f.keys()]))].sort();
  const rows = paths.map((path) => {
    const leaves = flat.map((f) => f.get(path) ?? null);
    const texts = new Set(leaves.map((l) => (l === null ? null : l.text)));
    return { path, values: leaves.map((l) => (l === null ? null : l.shown)), differs: texts.size > 1 };
  });
  return { rows, differing: rows.filter((r) => r.differs).length };
}
