// Reading a gate API request: its JSON body (UTF-8, at most 64 levels deep, no NUL anywhere, every number
// finite, an object) and
// its validation against a zod schema, refused as a 400 naming the first field at fault as the request
// spells it (`cases.3.id: duplicates cases.1.id`).
import type { z } from "zod";
import { fieldIssues, issuesSentence } from "@/lib/validation/sentence";
import { BodyAbortedError } from "@/server/http/body-limits";
import { NUL_REFUSAL, nulPath } from "@/server/http/nul";
import { checkDepth, HttpError, MAX_JSON_DEPTH } from "@/server/store/http/io";
import { badField, GateApiError } from "./answer";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Where the first number JSON.parse made infinite (`1e999`) is, as a dotted path, or null. */
function nonFinitePath(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === "number" && !Number.isFinite(v)) return at;
    if (v !== null && typeof v === "object") for (const [k, child] of Object.entries(v)) stack.push([child, at ? `${at}.${k}` : k]);
  }
  return null;
}

/** The request's body as a JSON object; with `optional`, an empty body reads as `{}`. */
export async function readJsonBody(request: Request, opts: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch (e) {
    throw new GateApiError(400, "bad_request", new BodyAbortedError(e).message, "body");
  }
  if (bytes.byteLength === 0) {
    if (opts.optional) return {};
    throw badField("body", "is required: send a JSON object");
  }
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(bytes));
  } catch (e) {
    throw badField("body", e instanceof SyntaxError ? `is not valid JSON (${e.message.slice(0, 200)})` : "is not valid UTF-8");
  }
  try {
    checkDepth(value);
  } catch (e) {
    if (e instanceof HttpError) throw badField("body", `is nested deeper than ${MAX_JSON_DEPTH} levels`);
    throw e;
  }
  const nul = nulPath(value);
  if (nul !== null) throw badField(nul || "body", NUL_REFUSAL);
  // Kept as the caller sent it (inputs, expected outputs), a number must have a JSON form to be hashed and served.
  const infinite = nonFinitePath(value);
  if (infinite !== null) throw badField(infinite || "body", "must be a finite number (this one is beyond ±1.8e308)");
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw badField("body", "must be a JSON object");
  return value as Record<string, unknown>;
}

/** `value` parsed by `schema`, or a 400 naming the first field at fault. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = fieldIssues(parsed.error.issues);
  const field = issues[0]?.path || "body";
  throw new GateApiError(400, "bad_request", issuesSentence(issues, "body"), field);
}

/** An integer query parameter within [min, max], or `fallback` when absent. */
export function queryInt(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isInteger(n) || n < min || n > max) throw badField(name, `must be an integer from ${min} to ${max}`);
  return n;
}
