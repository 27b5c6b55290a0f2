// POST /v1/traces: OTLP/HTTP export. Protobuf (what the Python runner and the LLM proxy send) or OTLP/JSON,
// optionally gzip-compressed. Success is an empty ExportTraceServiceResponse; refusals are 4xx with a
// google.rpc.Status body in the request's encoding (server/http/otlp-reply.ts) whose message names the problem.
import { gunzipSync } from "node:zlib";
import { ZodError } from "zod";
import { BodyAbortedError, BodyStalledError, BodyTooLargeError, bodyLimitOf, ServerBusyError } from "@/server/http/body-limits";
import { decodeJson, decodeProtobuf, encodeEmptyResponse, type OtlpResourceSpans } from "../otlp/decode";
import { mapOtlp } from "../otlp/map";
import { mediaType, OTLP_JSON, OTLP_PROTOBUF, otlpRefusal, otlpReply } from "@/server/http/otlp-reply";
import { StoreForbiddenError, StoreNotFoundError } from "../errors";
import type { LightningStore, StoreViewer } from "../index";
import type { StoreRequest, StoreResponse } from "./exchange";
import { checkDepth } from "./io";

/** The inflated body is held to the same limit as a plain one, so a small gzip bomb buys nothing. */
const OTLP_LIMIT = bodyLimitOf("otlp");

function inflate(raw: Uint8Array, method: string): Uint8Array {
  try {
    return gunzipSync(raw, { maxOutputLength: OTLP_LIMIT.bytes });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new BodyTooLargeError(OTLP_LIMIT, method, "decompressed request body");
    throw e;
  }
}

export async function handleOtlpTraces(request: StoreRequest, store: LightningStore, viewer?: StoreViewer): Promise<StoreResponse> {
  const contentType = mediaType(request.headers);
  if (contentType !== OTLP_PROTOBUF && contentType !== OTLP_JSON) {
    return otlpRefusal(request, 400, `Unsupported Content-Type '${contentType}', expected '${OTLP_PROTOBUF}' or '${OTLP_JSON}'`);
  }
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "identity" && encoding !== "") {
    return otlpRefusal(request, 415, `Unsupported Content-Encoding '${encoding}', expected gzip or none`);
  }
  let raw: Uint8Array;
  try {
    raw = (await request.body()) ?? new Uint8Array();
    if (encoding === "gzip") {
      try {
        raw = inflate(raw, request.method);
      } catch (e) {
        if (e instanceof BodyTooLargeError) throw e;
        return otlpRefusal(request, 400, `body is not valid gzip: ${(e as Error).message}`);
      }
      // The inflated copy is held while the spans are stored: it counts against the budget too.
      if (!request.hold(raw.byteLength)) throw new ServerBusyError(OTLP_LIMIT);
    }
  } catch (e) {
    if (e instanceof BodyTooLargeError || e instanceof BodyAbortedError || e instanceof BodyStalledError) return otlpRefusal(request, e.status, e.message);
    if (e instanceof ServerBusyError) {
      const busy = otlpRefusal(request, 503, e.message);
      return { ...busy, headers: { ...busy.headers, "retry-after": "1" } };
    }
    throw e;
  }

  let batch: OtlpResourceSpans[];
  try {
    if (contentType === OTLP_PROTOBUF) batch = raw.byteLength ? decodeProtobuf(raw) : [];
    else {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
      const value: unknown = text.trim() ? JSON.parse(text) : {};
      checkDepth(value);
      batch = decodeJson(value);
    }
  } catch (e) {
    const what = e instanceof ZodError ? e.issues.slice(0, 5).map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ") : (e as Error).message;
    return otlpRefusal(request, 400, `Unable to parse OTLP traces payload: ${what}`);
  }

  const { spans } = mapOtlp(batch);
  try {
    await store.addSpans(spans, viewer);
  } catch (e) {
    if (e instanceof StoreNotFoundError) return otlpRefusal(request, 404, e.message);
    if (e instanceof StoreForbiddenError) return otlpRefusal(request, 403, e.message);
    throw e;
  }
  return contentType === OTLP_PROTOBUF ? otlpReply(request, 200, OTLP_PROTOBUF, encodeEmptyResponse()) : otlpReply(request, 200, OTLP_JSON, "{}");
}
