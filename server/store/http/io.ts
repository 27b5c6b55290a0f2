// HTTP plumbing for /v1/agl: JSON with a nesting limit, query strings, and the reference's error shapes
// (body sizes are server/http/body-limits.ts's) (`{"detail": …}`; validation failures as FastAPI's 422 list naming the field).
import type { z } from "zod";
import { INT_PARAMS, LIST_PARAMS } from "./schemas";
import { dictionary } from "@/lib/own";

/** Texts sent with commas between them (a span page's items) without first building the joined string. */
export type CommaList = { readonly commaList: readonly string[] };
export type BodyPart = Uint8Array | string | CommaList;
/**
 * A body is bytes, text, parts sent back to back (a span page: head, the spans, tail — written into one
 * reused buffer by the node:http path), or chunks streamed in order (large span pages, so memory stays bounded).
 */
export type StoreBody = Uint8Array | string | BodyPart[] | AsyncIterable<Uint8Array | string> | null;
/** What a store route answers (see exchange.ts for the request and the handler). */
export type StoreResponse = { status: number; headers: Record<string, string>; body: StoreBody };

export const MAX_JSON_DEPTH = 64;

/** A refusal that becomes an HTTP response as it is. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
}

/**
 * Store answers are per-request API data: never cached, and not re-compressed by the web framework
 * (`no-transform` stops Next's gzip, which cost more CPU than the store work on small JSON bodies).
 */
export const API_HEADERS = { "content-type": "application/json", "cache-control": "no-store, no-transform" } as const;

export function json(body: unknown, status = 200): StoreResponse {
  return { status, headers: API_HEADERS, body: JSON.stringify(body) };
}

/** A JSON response whose body is already serialized text (or streamed in chunks). */
export function jsonText(body: StoreBody, status = 200): StoreResponse {
  return { status, headers: API_HEADERS, body };
}

export const commaList = (texts: readonly string[]): CommaList => ({ commaList: texts });

/** The part's size in bytes as sent (UTF-8). */
export function partBytes(part: BodyPart): number {
  if (typeof part === "string") return Buffer.byteLength(part);
  if (part instanceof Uint8Array) return part.byteLength;
  let n = Math.max(0, part.commaList.length - 1);
  for (const text of part.commaList) n += Buffer.byteLength(text);
  return n;
}

/** Writes the part into `into` at `at` (which has room: see partBytes); returns the offset after it. */
export function writePart(into: Buffer, at: number, part: BodyPart): number {
  if (typeof part === "string") return at + into.write(part, at);
  if (part instanceof Uint8Array) {
    into.set(part, at);
    return at + part.byteLength;
  }
  part.commaList.forEach((text, i) => {
    if (i > 0) into[at++] = 0x2c; // ","
    at += into.write(text, at);
  });
  return at;
}

export const partData = (part: BodyPart): Uint8Array | string => (typeof part === "string" || part instanceof Uint8Array ? part : part.commaList.join(","));

export function detail(status: number, message: string): StoreResponse {
  return json({ detail: message }, status);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Throws 400 when a parsed JSON value nests deeper than MAX_JSON_DEPTH (checked without recursion). */
export function checkDepth(value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > MAX_JSON_DEPTH) throw new HttpError(400, `body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
}

/** The JSON body, or `undefined` when the body is empty (routes whose body is optional). */
export function readJson(bytes: Uint8Array | null): unknown {
  if (bytes === null || bytes.byteLength === 0) return undefined;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new HttpError(400, "body is not valid UTF-8");
  }
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `body is not valid JSON: ${(e as Error).message}`);
  }
  checkDepth(value);
  return value;
}

type Issue = { path: PropertyKey[]; message: string; code?: string };

/** FastAPI's validation error shape: 422 with a list naming each bad field (`loc`). */
export function validationError(where: "body" | "query", issues: readonly Issue[]): HttpError {
  return new HttpError(
    422,
    issues.slice(0, 20).map((i) => {
      const loc = [where, ...i.path.map((p) => (typeof p === "number" ? p : String(p)))];
      return { type: i.code ?? "value_error", loc, msg: `${loc.join(".")}: ${i.message}` };
    }),
  );
}

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: "body" | "query"): T {
  const res = schema.safeParse(value);
  if (!res.success) throw validationError(where, res.error.issues);
  return res.data;
}

/** A query string as an object: repeated list keys become arrays, integer keys become numbers. */
export function queryObject(url: URL): Record<string, unknown> {
  // The keys are the caller's: `?__proto__=…` must be a key like any other (zod then ignores unknown ones).
  const out = dictionary<unknown>();
  for (const [key, value] of url.searchParams) {
    if (LIST_PARAMS.has(key)) {
      (out[key] = (out[key] as string[] | undefined) ?? []);
      (out[key] as string[]).push(value);
    } else if (INT_PARAMS.has(key)) {
      if (!/^-?\d{1,15}$/.test(value)) throw validationError("query", [{ path: [key], message: "Input should be a valid integer", code: "int_parsing" }]);
      out[key] = Number(value);
    } else out[key] = value;
  }
  return out;
}

/** A body that must be a JSON object (or absent, when `optional`). */
export function objectBody(value: unknown, optional: boolean): Record<string, unknown> | undefined {
  if (value === undefined || (optional && value === null)) {
    if (optional) return undefined;
    throw validationError("body", [{ path: [], message: "Field required", code: "missing" }]);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw validationError("body", [{ path: [], message: "Input should be a valid dictionary", code: "dict_type" }]);
  return value as Record<string, unknown>;
}
