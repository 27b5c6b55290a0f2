// The 413 a body over its limit gets, phrased as its route family phrases errors, so each client reads
// it as its own: the store's `{"detail"}`, an OTLP Status in the request's encoding, a tRPC error per
// procedure of the batch (superjson-wrapped, as the dashboard's client expects), or `{error, message}`.
// Always with `Connection: close`: the client must not go on streaming the rest into this connection.
import { otlpRefusal } from "@/server/store/otlp/status";
import type { BodyLimit, BodyTooLargeError } from "./body-limits";

type Headers = { get(name: string): string | null };
export type Refusal = { status: number; headers: Record<string, string>; body: Uint8Array | string };

const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" } as const;

function trpcBody(url: URL, message: string) {
  const procedures = decodeURIComponent(url.pathname.replace(/^\/api\/trpc\/?/, "")).split(",");
  const error = (path: string) => ({ error: { json: { message, code: -32013, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413, path } } } });
  return url.searchParams.get("batch") === "1" ? procedures.map(error) : error(procedures[0]!);
}

export function tooLargeRefusal(limit: BodyLimit, request: { url: URL; headers: Headers }, error: BodyTooLargeError): Refusal {
  const close = { connection: "close" };
  if (limit.format === "otlp") {
    const reply = otlpRefusal(request, 413, error.message);
    return { ...reply, headers: { ...reply.headers, ...close } };
  }
  let body: unknown;
  if (limit.format === "store") body = { detail: error.message };
  else if (limit.format === "trpc") {
    try {
      body = trpcBody(request.url, error.message);
    } catch {
      body = { error: { json: { message: error.message, code: -32013, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } } };
    }
  } else body = { error: "payload_too_large", message: error.message };
  return { status: 413, headers: { ...JSON_HEADERS, ...close }, body: JSON.stringify(body) };
}

/** The same refusal as a web Response (route handlers). */
export function tooLargeResponse(limit: BodyLimit, request: Request, error: BodyTooLargeError): Response {
  const r = tooLargeRefusal(limit, { url: new URL(request.url), headers: request.headers }, error);
  return new Response(r.body as BodyInit, { status: r.status, headers: r.headers });
}
