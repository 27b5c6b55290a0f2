// The hostile building blocks every route family draws from: names that are properties of every plain
// object, strings and numbers at the edges, JSON the standard serializer cannot produce (NaN, 1e999,
// duplicate keys, 100,000 levels deep), truncated and non-UTF-8 bodies, bad percent-encodings.
import fc from "fast-check";

/** Inherited or magic names: a lookup of these on a plain object finds something. */
export const PROTO_NAMES = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "__defineGetter__", "isPrototypeOf", "toJSON", "then"] as const;
export const protoName = fc.constantFrom(...PROTO_NAMES);

/** Percent-encodings no decoder accepts (truncated, non-hex, overlong, lone surrogate, invalid byte). */
export const BAD_PERCENT = ["%", "%E0%A4%A", "%zz", "%C0%AF", "%ED%A0%80", "%FF", "%E2%82", "%%", "%u0041", "a%2"] as const;
export const badPercent = fc.constantFrom(...BAD_PERCENT);

/** A JSON fragment written as is: lets a generated value hold what JSON.stringify cannot write. */
export class RawJson {
  constructor(readonly text: string) {}
}
const RAW_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "00", "0x10", "1.", ".5", "+1", "1e-999", "123456789012345678901234567890", "-0"];
export const rawNumber = fc.constantFrom(...RAW_NUMBERS).map((t) => new RawJson(t));

/** Numbers a careless validator lets through: negative, huge, fractional, unsafe integers. */
export const edgeNumber = fc.oneof(
  fc.constantFrom(-5, -1, 0, -0, 0.5, 2 ** 31, 2 ** 31 - 1, 2 ** 32, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 5e-324, 1e21),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Strings a careless handler mishandles: magic names, NUL, long, unicode, injection-looking, numeric. */
export const edgeString = fc.oneof(
  { weight: 3, arbitrary: protoName },
  { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom("", " ", "\u0000", "a\u0000b", "\ud800", "\u202e", "null", "undefined", "NaN", "-1", "1e999", "' OR 1=1 --", "../../etc/passwd", "%00", "<script>", "${x}", "{{x}}", "*", "%", "latest"),
  fc.constantFrom(600, 5_000, 70_000).map((n) => "x".repeat(n)),
);

/** A JSON value (plain data, RawJson leaves) nested a little, with magic names among its keys. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    edgeNumber,
    rawNumber,
    edgeString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(fc.oneof(protoName, fc.string({ maxLength: 8 })), tie("value")), { maxLength: 4 }).map(objectOf),
  ),
})).value;

/** An object built entry by entry, so `__proto__` becomes an own key (as JSON.parse makes it). */
export function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/** JSON text of a value that may hold RawJson leaves; own keys only, in order. */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === undefined) return "null";
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return String(value);
    if (typeof value === "bigint") return value.toString();
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  return `{${Object.keys(value)
    .map((k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, unknown>)[k])}`)
    .join(",")}}`;
}

/** Nesting far past any sane limit, as text (building it as a value would blow the generator's stack). */
export const deepJsonText = fc.tuple(fc.constantFrom(65, 200, 3_000, 100_000), fc.constantFrom("[", '{"a":')).map(([n, open]) => open.repeat(n) + "1" + (open === "[" ? "]" : "}").repeat(n));

/** One change that makes a (valid) object hostile: a field dropped, retyped, a magic key, a wrapper. */
export function mutated(base: unknown): fc.Arbitrary<unknown> {
  const obj = base && typeof base === "object" && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  const keys = Object.keys(obj);
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant("x");
  const withEntry = (k: string, v: unknown) => objectOf([...Object.entries(obj).filter(([n]) => n !== k), [k, v]]);
  return fc.oneof(
    { weight: 3, arbitrary: fc.tuple(key, hostileJson).map(([k, v]) => withEntry(k, v)) },
    { weight: 2, arbitrary: fc.tuple(protoName, hostileJson).map(([k, v]) => objectOf([...Object.entries(obj), [k, v]])) },
    fc.tuple(key, fc.oneof(edgeNumber, rawNumber)).map(([k, v]) => withEntry(k, v)),
    key.map((k) => objectOf(Object.entries(obj).filter(([n]) => n !== k))),
    fc.tuple(fc.string({ maxLength: 10 }), hostileJson).map(([k, v]) => objectOf([...Object.entries(obj), [k, v]])),
    fc.constant(obj),
    hostileJson,
    fc.constant([obj]),
    fc.tuple(key, edgeString).map(([k, v]) => withEntry(k, v)),
  );
}

/** `mutated` applied at one node anywhere inside `base` (the whole value, a nested object, an array item). */
export function deepMutated(base: unknown): fc.Arbitrary<unknown> {
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, at: (string | number)[]) => {
    if (v === null || typeof v !== "object") return;
    paths.push(at);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...at, i]));
    else for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
  };
  walk(base, []);
  if (paths.length === 0) return mutated(base);
  return fc.constantFrom(...paths).chain((at) => {
    const node = at.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], base);
    return mutated(node).map((replacement) => replaceAt(base, at, replacement));
  });
}

function replaceAt(value: unknown, at: (string | number)[], replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const [head, ...rest] = at;
  if (Array.isArray(value)) return value.map((x, i) => (i === head ? replaceAt(x, rest, replacement) : x));
  const obj = value as Record<string, unknown>;
  return objectOf(Object.keys(obj).map((k) => [k, k === head ? replaceAt(obj[k], rest, replacement) : obj[k]] as const));
}

/** A request body from a value: its JSON text mostly, else truncated, non-UTF-8, empty, or another shape. */
export function bodyOf(value: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  const text = value.map(jsonText);
  return fc.oneof(
    { weight: 8, arbitrary: text.map((t) => Buffer.from(t)) },
    { weight: 2, arbitrary: fc.tuple(text, fc.double({ min: 0, max: 1, noNaN: true })).map(([t, at]) => Buffer.from(t.slice(0, Math.floor(t.length * at)))) },
    deepJsonText.map((t) => Buffer.from(t)),
    fc.constantFrom("", " ", "null", "[]", "{}", '{"a":1,"a":2}', "\ufeff{}", "{}garbage", "{'a':1}", "undefined", '"str"').map((t) => Buffer.from(t)),
    fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
    text.map((t) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, "utf16le")])),
  );
}

/** A path segment: a real value mostly, else magic names, bad percent-encoding, dots, huge or odd text. */
export function segment(real: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: real.length ? fc.constantFrom(...real.map(encode)) : fc.constant("x") },
    { weight: 3, arbitrary: protoName },
    { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 6 }).map(encode), badPercent).map(([a, b]) => a + b) },
    edgeString.map((s) => encode(s.slice(0, 2_000))),
    fc.constantFrom("..", ".", "%2e%2e", "%2F", "a%2Fb", "%00", "%20", "~", "%C3%A9", "x".repeat(600)),
  );
}

/** Percent-encoding that never throws: lone surrogates (which encodeURIComponent refuses) become U+FFFD. */
export function encode(s: string): string {
  return encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));
}

/** Latin-1 printable text: what an HTTP client can put in a header value. */
export const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 40 });

/** Content types a client gets wrong. */
export const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/x-protobuf",
  "application/octet-stream",
  "",
  "*/*",
  "application/json, text/plain",
  "APPLICATION/JSON",
);

/** A query string from key/value pairs, each already encoded (or deliberately not). */
export function queryOf(pairs: readonly (readonly [string, string])[]): string {
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : "";
}

/** Larger than any body limit a route may set (80 MiB): a JSON object whose one string fills it. Made once. */
let oversize: Buffer | undefined;
export function oversizeJson(): Buffer {
  oversize ??= Buffer.concat([Buffer.from('{"email":"'), Buffer.alloc(80 << 20, "x"), Buffer.from('","password":"p"}')]);
  return oversize;
}
export const OVERSIZE = "a body of 80 MiB, over any limit: refused before it is buffered";
