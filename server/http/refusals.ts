// The answer a body over its limit gets (413), one that finds its family's in-flight budget spent (503
// with Retry-After), or one that stalls (408), phrased as its route family phrases errors, so each client reads it as its own: the
// store's `{"detail"}`, an OTLP Status in the request's encoding, a tRPC error per procedure of the batch
// (superjson-wrapped, as the dashboard's client expects), or `{error, message}`. Always with
// `Connection: close`: the rest of the body is never read, so the client must not go on streaming it.
import { otlpRefusal } from "./otlp-reply";
import type { BodyLimit, BodyStalledError, BodyTooLargeError, ServerBusyError } from "./body-limits";

type Headers = { get(name: string): string | null };
export type Refusal = { status: number; headers: Record<string, string>; body: Uint8Array | string };
export type BodyRefusalError = BodyTooLargeError | ServerBusyError | BodyStalledError;

const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" } as const;

function trpcBody(url: URL, status: number, message: string) {
  const [code, rpc] = status === 413 ? ["PAYLOAD_TOO_LARGE", -32013] : status === 408 ? ["TIMEOUT", -32008] : ["SERVICE_UNAVAILABLE", -32603];
  const error = (path?: string) => ({ error: { json: { message, code: rpc, data: { code, httpStatus: status, ...(path === undefined ? {} : { path }) } } } });
  let procedures: string[];
  try {
    procedures = decodeURIComponent(url.pathname.replace(/^\/api\/trpc\/?/, "")).split(",");
  } catch {
    return error();
  }
  return url.searchParams.get("batch") === "1" ? procedures.map(error) : error(procedures[0]);
}

export function bodyRefusal(limit: BodyLimit, request: { url: URL; headers: Headers }, error: BodyRefusalError): Refusal {
  const extra: Record<string, string> = { connection: "close", ...(error.status === 503 ? { "retry-after": "1" } : {}) };
  if (limit.format === "otlp") {
    const reply = otlpRefusal(request, error.status, error.message);
    return { ...reply, headers: { ...reply.headers, ...extra } };
  }
  const body =
    limit.format === "store"
      ? { detail: error.message }
      : limit.format === "trpc"
        ? trpcBody(request.url, error.status, error.message)
        : { error: error.status === 413 ? "payload_too_large" : error.status === 408 ? "body_stalled" : "busy", message: error.message };
  return { status: error.status, headers: { ...JSON_HEADERS, ...extra }, body: JSON.stringify(body) };
}

/** The same refusal as a web Response (route handlers). */
export function bodyRefusalResponse(limit: BodyLimit, request: Request, error: BodyRefusalError): Response {
  const r = bodyRefusal(limit, { url: new URL(request.url), headers: request.headers }, error);
  return new Response(r.body as BodyInit, { status: r.status, headers: r.headers });
}
