// tRPC's wire transformer (server/trpc.ts and the browser's link use this one object): plain JSON, with what
// JSON cannot say — Dates, undefined array items, NaN and ±Infinity — marked beside it in superjson's envelope,
// `{ json, meta: { values: { "items.0.createdAt": ["Date"] }, v: 1 } }`, so callers that send `{ "json": input }`
// (release bots, scripts) keep working and a superjson client still reads our answers.
//
// Why not superjson itself: it refuses to serialise any object with a key `__proto__`, `constructor` or
// `prototype` (its guard against prototype pollution), and stored user JSON — rollout inputs, span attributes,
// heartbeat stats, resources — may have any key. JSON itself is safe for those keys: JSON.parse makes every
// key an own property and never sets a prototype. So user JSON travels as JSON, and reviving a mark walks own
// properties only and defines (never assigns) the value, so a hostile `meta` cannot reach any prototype.

type Mark = "Date" | "undefined" | "number";
type Path = (string | number)[];
export type WireEnvelope = { json?: unknown; meta?: { values: Record<string, [Mark]> | [Mark]; v: 1 } };

// superjson's path syntax: keys joined by ".", with "\" and "." inside a key escaped by "\".
const escapeKey = (key: string) => key.replace(/\\/g, "\\\\").replace(/\./g, "\\.");
const pathText = (path: Path) => path.map((k) => escapeKey(String(k))).join(".");

function parsePath(text: string): string[] | null {
  const keys: string[] = [];
  let key = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      const next = text[i + 1];
      if (next !== "\\" && next !== ".") return null;
      key += next;
      i++;
    } else if (c === ".") {
      keys.push(key);
      key = "";
    } else key += c;
  }
  keys.push(key);
  return keys;
}

const isContainer = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const defineOwn = (target: object, key: string | number, value: unknown) =>
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });

function typeName(v: object): string {
  return (Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null)?.constructor?.name ?? "object";
}

const MAX_DEPTH = 1000;

/**
 * Returns the value JSON should carry in place of `value` (the same object when nothing under it needs a
 * change), recording marks by path. Dates need no change: JSON calls their toJSON. `path` is one stack,
 * pushed and popped around each child, so walking allocates nothing per node that needs no mark.
 */
function walk(value: unknown, path: Path, marks: Record<string, [Mark]>, inArray: boolean): unknown {
  if (value === undefined) {
    if (inArray) marks[pathText(path)] = ["undefined"];
    return value;
  }
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    if (path.length > 0) marks[pathText(path)] = ["number"];
    return String(value);
  }
  if (typeof value === "bigint") throw new TypeError(`tRPC output ${pathText(path) || "(root)"} is a bigint, which JSON cannot carry: send a number or a string`);
  if (!isContainer(value)) return value;
  if (value instanceof Date) {
    if (path.length > 0) marks[pathText(path)] = ["Date"];
    return value;
  }
  if (value instanceof Map || value instanceof Set || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) throw new TypeError(`tRPC output ${pathText(path) || "(root)"} is a ${typeName(value)}, which JSON cannot carry: send an array or an object`);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  if (path.length > MAX_DEPTH) throw new TypeError(`tRPC output nests deeper than ${MAX_DEPTH} levels (does it refer to itself?)`);
  let copy: object | null = null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      path.push(i);
      const out = walk(item, path, marks, true);
      path.pop();
      if (out !== item) defineOwn((copy ??= [...value]), i, out);
    }
  } else {
    for (const key of Object.keys(value)) {
      const item = value[key];
      path.push(key);
      const out = walk(item, path, marks, false);
      path.pop();
      // Defined, not assigned: assigning to a key `__proto__` would replace the copy's prototype.
      if (out !== item) defineOwn((copy ??= { ...value }), key, out);
    }
  }
  return copy ?? value;
}

export function serialize(value: unknown): WireEnvelope {
  const marks: Record<string, [Mark]> = Object.create(null) as Record<string, [Mark]>;
  const json = walk(value, [], marks, false);
  // A mark on the root itself travels as a bare ["Date"] (superjson's form); "" in the record is the key "".
  const rootMark: Mark | null = value instanceof Date ? "Date" : typeof value === "number" && !Number.isFinite(value) ? "number" : null;
  if (rootMark) return { json, meta: { values: [rootMark], v: 1 } };
  return Object.keys(marks).length === 0 ? { json } : { json, meta: { values: marks, v: 1 } };
}

function revive(mark: unknown, current: unknown): { value: unknown } | null {
  const kind = Array.isArray(mark) ? (mark as unknown[])[0] : mark;
  if (kind === "Date") return typeof current === "string" ? { value: new Date(current) } : current === null ? { value: new Date(NaN) } : null;
  if (kind === "undefined") return current === null || current === undefined ? { value: undefined } : null;
  if (kind === "number") return current === "NaN" || current === "Infinity" || current === "-Infinity" ? { value: Number(current) } : null;
  return null; // anything else (superjson's Map, Set, class marks…) is left as the JSON says
}

/** Applies one mark at `keys`, stepping through own properties only; a mark that does not fit is ignored. */
function applyMark(root: { value: unknown }, keys: string[], mark: unknown): void {
  let parent: unknown = root;
  let key = "value";
  for (const next of keys) {
    const node = (parent as Record<string, unknown>)[key];
    if (!isContainer(node) || !Object.hasOwn(node, next)) return;
    parent = node;
    key = next;
  }
  const revived = revive(mark, (parent as Record<string, unknown>)[key]);
  if (revived) defineOwn(parent as object, key, revived.value);
}

/**
 * The value of an envelope. Never throws: input comes from anyone, and a malformed `meta` only leaves the
 * JSON as it is (zod then judges the input). A payload without `json` is `undefined`, as with superjson.
 */
export function deserialize(payload: unknown): unknown {
  if (!isContainer(payload) || !Object.hasOwn(payload, "json")) return undefined;
  const root = { value: payload.json };
  const meta = Object.hasOwn(payload, "meta") ? payload.meta : undefined;
  const values = isContainer(meta) && Object.hasOwn(meta, "values") ? meta.values : undefined;
  if (Array.isArray(values)) applyMark(root, [], values);
  else if (isContainer(values)) {
    for (const text of Object.keys(values)) {
      const keys = parsePath(text);
      if (keys) applyMark(root, keys, values[text]);
    }
  }
  return root.value;
}

/** The transformer both ends of tRPC use (`initTRPC.create({ transformer })`, `httpBatchLink({ transformer })`). */
export const wireTransformer = { serialize, deserialize };
