// OTLP/HTTP answers in the request's encoding (the OTLP spec: the response uses the request's
// Content-Type): protobuf `google.rpc.Status` for protobuf (and for anything unrecognised), JSON for
// OTLP/JSON; gzipped when the client accepts gzip. Every refusal of the OTLP routes — 4xx of the
// decoder, 401/403 of the key check, 408/413/503 of the body limits, 405/501 — goes through `otlpRefusal`.
// They live with the HTTP edge, not the store: the body limits refuse OTLP bodies before any store code runs.
import { gzipSync } from "node:zlib";
import protobuf from "protobufjs";

export const OTLP_PROTOBUF = "application/x-protobuf";
export const OTLP_JSON = "application/json";

type Headers = { get(name: string): string | null };
export type OtlpReply = { status: number; headers: Record<string, string>; body: Uint8Array };

/** The request's media type, lower-case, without parameters. */
export function mediaType(headers: Headers): string {
  return (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

function acceptsGzip(headers: Headers): boolean {
  return (headers.get("accept-encoding") ?? "").split(",").some((t) => t.split(";")[0]!.trim().toLowerCase() === "gzip");
}

export function otlpReply(request: { headers: Headers }, status: number, contentType: string, body: Uint8Array | string): OtlpReply {
  let bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const headers: Record<string, string> = { "content-type": contentType, "cache-control": "no-store, no-transform" };
  if (acceptsGzip(request.headers) && bytes.byteLength > 0) {
    bytes = new Uint8Array(gzipSync(bytes));
    headers["content-encoding"] = "gzip";
  }
  return { status, headers, body: bytes };
}

/** google.rpc.Code for an HTTP refusal (OTLP clients show it beside the message). */
function rpcCode(status: number): number {
  if (status === 401) return 16; // UNAUTHENTICATED
  if (status === 403) return 7; // PERMISSION_DENIED
  if (status === 404) return 5; // NOT_FOUND
  if (status === 408) return 4; // DEADLINE_EXCEEDED (a stalled body)
  if (status === 413) return 8; // RESOURCE_EXHAUSTED
  if (status === 405 || status === 501) return 12; // UNIMPLEMENTED
  if (status === 503) return 14; // UNAVAILABLE (exporters retry it)
  return 3; // INVALID_ARGUMENT
}

/** google.rpc.Status, the body of OTLP/HTTP error responses (code, message; details left out). */
const STATUS = new protobuf.Type("Status").add(new protobuf.Field("code", 1, "int32")).add(new protobuf.Field("message", 2, "string"));
new protobuf.Root().define("google.rpc").add(STATUS);

export function encodeStatus(message: string, code = 3): Uint8Array {
  return STATUS.encode(STATUS.create({ code, message })).finish();
}

/** A refusal with a Status body naming the problem, in the encoding the request used. */
export function otlpRefusal(request: { headers: Headers }, status: number, message: string): OtlpReply {
  const code = rpcCode(status);
  return mediaType(request.headers) === OTLP_JSON
    ? otlpReply(request, status, OTLP_JSON, JSON.stringify({ code, message }))
    : otlpReply(request, status, OTLP_PROTOBUF, encodeStatus(message, code));
}
