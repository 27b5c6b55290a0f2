// The production server's request routing (scripts/serve.ts), framework-free so tests can start it without
// a Next.js build: the store API (/v1/agl/*, /v1/traces and the OTLP signals it refuses) takes the fast
// path straight to the store's handler, the gate API (/v1/gate/*) straight to its web handler; everything
// else — dashboard, tRPC, auth, pointers, receipts — goes to Next.js. Before Next sees a request, a declared body over its route's limit (body-limits.ts) is
// refused; a streamed one is counted by the route handler (web-body.ts); and whatever Next answers, a body
// still arriving after the answer is never read — the connection is closed.
import http from "node:http";
import { stampClientAddress } from "@/server/auth/client-address";
import type { StoreHandler } from "@/server/store/http/exchange";
import { nodeListener } from "@/server/store/http/node-server";
import { declaresBody } from "./body-limits";
import { applyServerTimeouts, checkContinue, closeAfterAnswer, declaredRefusal, nodeHeaderReader, requestUrl, sendRefusal } from "./node-body";
import { webFastPath } from "./web-fast-path";
import { BAD_PERCENT_ENCODING, decodePathSegments } from "@/lib/http/path-segments";
import type { Refusal } from "./refusals";

/**
 * 400 for a path that is not valid percent-encoding: on tRPC paths in tRPC's own error shape as the client
 * reads it (superjson's `{json}` envelope; a batch answers an array — one item, since the procedure names
 * cannot be decoded), else {error, message}.
 */
function badEncoding(url: URL): Refusal {
  const trpc = url.pathname.startsWith("/api/trpc/");
  const item = { error: { json: { message: BAD_PERCENT_ENCODING, code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } } } };
  const body = trpc ? (url.searchParams.get("batch") === "1" ? [item] : item) : { error: "bad_request", message: BAD_PERCENT_ENCODING };
  return { status: 400, headers: { "content-type": "application/json", "cache-control": "no-store", connection: "close" }, body: JSON.stringify(body) };
}

export const STORE_PATH = /^\/v1\/(agl\/|traces\/?(\?|$)|metrics\/?(\?|$)|logs\/?(\?|$)|development\/profiles\/?(\?|$))/;
/** The gate API (server/gate-api): served past Next.js too, so a 16 MiB dataset reaches its handler whole. */
export const GATE_API_PATH = /^\/v1\/gate(\/|\?|$)/;

export type NextRequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

export type ListenerOptions = {
  /** The host for URLs of requests that name none. */
  fallbackHost?: string;
  /** Proxy hops whose X-Forwarded-For entries are trusted for the client's address (default: LIGHTGATE_TRUSTED_PROXY_HOPS). */
  proxyHops?: number;
  /** The gate API's handler (`serveGateApi` over the server's database); without it, Next.js serves /v1/gate. */
  gateApi?: (request: Request) => Promise<Response>;
};

export function lightgateListener(handleStore: http.RequestListener, handleNext: NextRequestHandler, opts: ListenerOptions = {}): http.RequestListener {
  const fallbackHost = opts.fallbackHost ?? "127.0.0.1";
  const handleGate = opts.gateApi && webFastPath(opts.gateApi, fallbackHost);
  return (req, res) => {
    if (STORE_PATH.test(req.url ?? "")) return handleStore(req, res);
    if (handleGate && GATE_API_PATH.test(req.url ?? "")) return handleGate(req, res);
    const url = requestUrl(req, fallbackHost);
    // Next.js decodes dynamic segments itself and answers a bad encoding with its error page (a 500 in
    // production). Checked here for every path, so proxy.ts need not run — and buffer bodies — for the API.
    if (decodePathSegments(url.pathname) === null) return sendRefusal(req, res, badEncoding(url));
    const refusal = declaredRefusal(req, url);
    if (refusal) return sendRefusal(req, res, refusal);
    if (declaresBody(nodeHeaderReader(req.headers))) closeAfterAnswer(req, res);
    // The client's address as this server saw it (never a client-written header), for the sign-in limit.
    stampClientAddress(req, opts.proxyHops);
    void handleNext(req, res);
  };
}

/** The server `npm start` runs, minus listening: store fast path + Next.js, body limits on both. */
export function createLightgateServer(store: StoreHandler, handleNext: NextRequestHandler, opts: ListenerOptions = {}): http.Server {
  const fallbackHost = opts.fallbackHost ?? "127.0.0.1";
  const listener = lightgateListener(nodeListener(store, fallbackHost), handleNext, opts);
  const server = http.createServer(listener);
  server.on("checkContinue", checkContinue(listener, fallbackHost));
  applyServerTimeouts(server);
  return server;
}
