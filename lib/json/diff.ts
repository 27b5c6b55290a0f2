// A key diff of two JSON documents: every leaf is addressed by its path (`llm.sampling_parameters.temperature`,
// `items[2]`) and compared by its canonical JSON text. Secrets (lib/json/secrets.ts: values under a secret-like
// key, credentials inside a string) are masked, while a change of a secret is still reported (as "changed",
// both sides masked).
import { hidesSecret, MASK, maskSecrets } from "./secrets";

export type DiffChange = "added" | "removed" | "changed";
export type DiffEntry = { path: string; change: DiffChange; before?: string; after?: string; secret: boolean };
export type JsonDiff = { entries: DiffEntry[]; unchanged: number };

/** `text` is compared, `shown` is what the diff shows: the text with credentials inside strings masked. */
export type JsonLeaf = { text: string; shown: string; secret: boolean };
type Leaf = JsonLeaf;

/** Stable text for a leaf: object keys sorted, so key order never shows up as a change. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const IDENT = /^[A-Za-z_$][\w$-]*$/;
const join = (path: string, key: string) => (IDENT.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`);

function flatten(value: unknown, path: string, secret: boolean, out: Map<string, Leaf>): void {
  const container = value !== null && typeof value === "object";
  const empty = container && Object.keys(value).length === 0;
  if (!container || empty || secret) {
    const text = stable(value);
    const shown = secret ? MASK : typeof value === "string" ? stable(maskSecrets(value)) : text;
    out.set(path || "(root)", { text, shown, secret: secret || shown !== text });
    return;
  }
  if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${path}[${i}]`, false, out));
  else for (const [k, v] of Object.entries(value)) flatten(v, join(path, k), hidesSecret(k, v), out);
}

/**
 * Every leaf of a JSON document by its path (`ppo.learningRate`, `layers[0]`, `(root)` for a bare value), with
 * the stable text it compares by; empty objects and arrays are leaves. Keys go into a Map, so no name of the
 * document can reach a prototype.
 */
export function flattenLeaves(value: unknown): Map<string, JsonLeaf> {
  const out = new Map<string, Leaf>();
  flatten(value, "", false, out);
  return out;
}

const show = (leaf: Leaf) => leaf.shown;

export function diffJson(before: unknown, after: unknown): JsonDiff {
  const a = flattenLeaves(before);
  const b = flattenLeaves(after);
  const entries: DiffEntry[] = [];
  let unchanged = 0;
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(path);
    const y = b.get(path);
    if (x && y && x.text === y.text) unchanged++;
    else if (x && y) entries.push({ path, change: "changed", before: show(x), after: show(y), secret: x.secret || y.secret });
    else if (y) entries.push({ path, change: "added", after: show(y), secret: y.secret });
    else if (x) entries.push({ path, change: "removed", before: show(x), secret: x.secret });
  }
  return { entries, unchanged };
}
