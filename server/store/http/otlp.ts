// POST /v1/traces: OTLP/HTTP export. Protobuf (what the Python runner and the LLM proxy send) or OTLP/JSON,
// optionally gzip-compressed. Success is an empty ExportTraceServiceResponse; refusals are 4xx with a
// google.rpc.Status body (JSON for JSON requests) whose message names the problem.
import { gunzipSync, gzipSync } from "node:zlib";
import { ZodError } from "zod";
import { decodeJson, decodeProtobuf, encodeEmptyResponse, encodeStatus, type OtlpResourceSpans } from "../otlp/decode";
import { mapOtlp } from "../otlp/map";
import { StoreNotFoundError } from "../errors";
import type { LightningStore } from "../index";
import type { StoreRequest, StoreResponse } from "./exchange";
import { checkDepth } from "./io";

const PROTOBUF = "application/x-protobuf";
const JSON_CT = "application/json";
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

function acceptsGzip(request: StoreRequest): boolean {
  return (request.headers.get("accept-encoding") ?? "").split(",").some((t) => t.split(";")[0]!.trim().toLowerCase() === "gzip");
}

function reply(request: StoreRequest, status: number, contentType: string, body: Uint8Array | string): StoreResponse {
  let bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const headers: Record<string, string> = { "content-type": contentType, "cache-control": "no-store, no-transform" };
  if (acceptsGzip(request) && bytes.byteLength > 0) {
    bytes = new Uint8Array(gzipSync(bytes));
    headers["content-encoding"] = "gzip";
  }
  return { status, headers, body: bytes };
}

function refuse(request: StoreRequest, status: number, contentType: string, message: string): StoreResponse {
  return contentType === JSON_CT ? reply(request, status, JSON_CT, JSON.stringify({ code: 3, message })) : reply(request, status, PROTOBUF, encodeStatus(message));
}

export async function handleOtlpTraces(request: StoreRequest, store: LightningStore): Promise<StoreResponse> {
  const contentType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (contentType !== PROTOBUF && contentType !== JSON_CT) {
    return refuse(request, 400, PROTOBUF, `Unsupported Content-Type '${contentType}', expected '${PROTOBUF}' or '${JSON_CT}'`);
  }
  let raw: Uint8Array = request.body ?? new Uint8Array();
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding === "gzip") {
    try {
      raw = gunzipSync(raw, { maxOutputLength: MAX_INFLATED_BYTES });
    } catch (e) {
      return refuse(request, 400, contentType, `body is not valid gzip: ${(e as Error).message}`);
    }
  } else if (encoding !== "identity" && encoding !== "") {
    return refuse(request, 415, contentType, `Unsupported Content-Encoding '${encoding}', expected gzip or none`);
  }

  let batch: OtlpResourceSpans[];
  try {
    if (contentType === PROTOBUF) batch = raw.byteLength ? decodeProtobuf(raw) : [];
    else {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
      const value: unknown = text.trim() ? JSON.parse(text) : {};
      checkDepth(value);
      batch = decodeJson(value);
    }
  } catch (e) {
    const what = e instanceof ZodError ? e.issues.slice(0, 5).map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") : (e as Error).message;
    return refuse(request, 400, contentType, `Unable to parse OTLP traces payload: ${what}`);
  }

  const { spans } = mapOtlp(batch);
  try {
    await store.addSpans(spans);
  } catch (e) {
    if (e instanceof StoreNotFoundError) return refuse(request, 404, contentType, e.message);
    throw e;
  }
  return contentType === PROTOBUF ? reply(request, 200, PROTOBUF, encodeEmptyResponse()) : reply(request, 200, JSON_CT, "{}");
}
