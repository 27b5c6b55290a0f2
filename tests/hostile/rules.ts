// What "answered well" means per route family: never ≥ 500 (in a tRPC batch, no item either), and every
// 4xx names what is wrong in the family's own error shape —
//   store REST  {"detail": "<sentence>"} or FastAPI's 422 list [{loc: [...], msg}]
//   OTLP        a google.rpc.Status with a message, in the request's encoding (protobuf or JSON)
//   tRPC        error.json.message per item; a validation error is a sentence naming the field, not a JSON dump
//   pointers, receipts, auth   {"message": "<sentence>"}
import protobuf from "protobufjs";
import type { Answered, HostileCase } from "./http";

export type Judgement = { serverError: string | null; refused: boolean; unnamed: string | null };

const MIN_MESSAGE = 3;
const named = (s: unknown): s is string => typeof s === "string" && s.trim().length >= MIN_MESSAGE;

/** The body as JSON whatever its content type says (tRPC labels some of its JSON errors text/plain). */
function parseJson(a: Answered): unknown {
  try {
    return JSON.parse(a.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** google.rpc.Status's message (field 2), or null when the bytes are not a Status with one. */
export function statusMessage(bytes: Buffer): string | null {
  if (bytes.length === 0) return null;
  try {
    const reader = protobuf.Reader.create(bytes);
    let message: string | null = null;
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 === 2 && (tag & 7) === 2) message = reader.string();
      else reader.skipType(tag & 7);
    }
    return message;
  } catch {
    return null;
  }
}

function describe(a: Answered): string {
  const text = a.body.toString("utf8").replace(/\s+/g, " ").slice(0, 160);
  return `${a.status} ${a.headers["content-type"] ?? "(no content-type)"}: ${text || "(empty body)"}`;
}

function judgeStore(a: Answered): string | null {
  const body = parseJson(a) as { detail?: unknown } | undefined;
  const d = body?.detail;
  if (named(d)) return null;
  if (Array.isArray(d) && d.length > 0 && d.every((i: { loc?: unknown; msg?: unknown }) => Array.isArray(i.loc) && named(i.msg))) return null;
  return `no {"detail"} naming the problem — ${describe(a)}`;
}

function judgeOtlp(c: HostileCase, a: Answered): string | null {
  // Every answer of an OTLP route is in the request's encoding (JSON for OTLP/JSON, else a protobuf Status).
  const sentJson = (c.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
  const type = String(a.headers["content-type"] ?? "");
  if (sentJson) {
    const body = parseJson(a) as { message?: unknown } | undefined;
    return named(body?.message) ? null : `a JSON export's refusal is not a JSON Status with a message — ${describe(a)}`;
  }
  if (!type.startsWith("application/x-protobuf")) return `a protobuf export's refusal is not a protobuf Status — ${describe(a)}`;
  return named(statusMessage(a.body)) ? null : `the protobuf Status has no message — ${describe(a)}`;
}

function judgeMessage(a: Answered): string | null {
  const body = parseJson(a) as { message?: unknown } | undefined;
  return named(body?.message) ? null : `no {"message"} naming the problem — ${describe(a)}`;
}

type TrpcItem = { result?: unknown; error?: { json?: { message?: unknown; data?: { httpStatus?: number; path?: string; zodIssues?: { path: string; message: string }[] | null } } } };

/** A validation refusal names the field it is about, in words: the field's name, not a JSON dump of issues. */
function trpcItemUnnamed(item: TrpcItem): string | null {
  const e = item.error?.json;
  if (!named(e?.message)) return `an error item without a message — ${JSON.stringify(item).slice(0, 160)}`;
  const message = e.message;
  const issues = e.data?.zodIssues ?? [];
  if (issues.length === 0) return null;
  if (/^\s*[[{]/.test(message)) return `a validation error is a JSON dump, not a sentence — ${e.data?.path ?? "?"}: ${message.replace(/\s+/g, " ").slice(0, 120)}`;
  const field = issues[0]!.path;
  const last = field.split(".").pop() ?? "";
  if (field && !message.includes(field) && !message.includes(last)) return `a validation error does not name its field — ${e.data?.path ?? "?"}, field "${field}": ${message.slice(0, 120)}`;
  return null;
}

function judgeTrpc(a: Answered): Judgement {
  const body = parseJson(a);
  // Refused in front of tRPC by `next start`'s proxy.ts (the path is not valid percent-encoding): `{error, message}`,
  // no procedure ran. The production listener answers the same refusal in tRPC's own shape.
  const front = body as { error?: unknown; message?: unknown } | undefined;
  if (a.status >= 400 && a.status < 500 && typeof front?.error === "string" && named(front.message)) return { serverError: null, refused: true, unnamed: null };
  const items = (Array.isArray(body) ? body : body && typeof body === "object" ? [body] : []) as TrpcItem[];
  if (items.length === 0) {
    const refused = a.status >= 400;
    return { serverError: a.status >= 500 ? describe(a) : null, refused, unnamed: refused && a.status < 500 ? `not a tRPC error body — ${describe(a)}` : null };
  }
  const failing = items.find((i) => (i.error?.json?.data?.httpStatus ?? 0) >= 500);
  const serverError = a.status >= 500 || failing ? `${failing?.error?.json?.data?.httpStatus ?? a.status}: ${String(failing?.error?.json?.message ?? a.body.toString().slice(0, 160)).slice(0, 200)} — in ${failing?.error?.json?.data?.path ?? "?"}` : null;
  const refused = items.every((i) => i.error !== undefined);
  const unnamed = items.filter((i) => i.error).map(trpcItemUnnamed).find((u) => u !== null) ?? null;
  return { serverError, refused, unnamed };
}

/** Judged by the route the request went to (an auth-family forgery sent to tRPC answers in tRPC's shape). */
export function judge(c: HostileCase, a: Answered): Judgement {
  if (c.path.startsWith("/api/trpc")) return judgeTrpc(a);
  const refused = a.status >= 400;
  const serverError = a.status >= 500 ? describe(a) : null;
  // A HEAD answer has no body by definition: only its status is judged.
  if (!refused || serverError || c.method === "HEAD") return { serverError, refused, unnamed: null };
  const unnamed = c.path.startsWith("/v1/agl") ? judgeStore(a) : c.path.startsWith("/v1/traces") ? judgeOtlp(c, a) : judgeMessage(a);
  return { serverError, refused, unnamed };
}
