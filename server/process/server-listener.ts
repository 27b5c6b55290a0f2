// The production server's request routing (scripts/serve.ts) — the one place that composes the HTTP edge
// (server/http), the store's fast path and the gate API, so none of them imports another — framework-free so tests can start it without
// a Next.js build: the store API (/v1/agl/*, /v1/traces and the OTLP signals it refuses) takes the fast
// path straight to the store's handler, the gate API (/v1/gate/*) straight to its web handler; everything
// else — dashboard, tRPC, auth, pointers, receipts — goes to Next.js. Before Next sees a request, a declared
// body over its route's limit (body-limits.ts) is refused, and any other body is read here, whole: counted as
// it arrives against its family's budget and its caller's share, held to the read rate, refused with
// 413/503/408 in its family's shape. Next then gets a copy of the request with the body complete — it never
// reads from the network, so an endless body cannot keep it reading and a client that breaks off its request
// cannot make Next's body stream throw (`uncaughtException: aborted`).
import http from "node:http";
import { knownCaller, type IdentifyCaller } from "@/server/auth/body-caller";
import { CLIENT_ADDRESS_HEADER, stampClientAddress } from "@/server/auth/client-address";
import type { StoreHandler } from "@/server/store/http/exchange";
import { nodeListener } from "@/server/store/http/node-server";
import { BodyStalledError, BodyTooLargeError, bodyLimitFor, bodyTicket, COUNTED_HEADER, countedMark, declaresBody, ServerBusyError } from "@/server/http/body-limits";
import { applyServerTimeouts, checkContinue, declaredRefusal, nodeHeaderReader, readNodeBody, requestUrl, sendRefusal } from "@/server/http/node-body";
import { bodyRefusal } from "@/server/http/refusals";
import { webFastPath } from "@/server/http/web-fast-path";
import { BAD_PERCENT_ENCODING, decodePathSegments } from "@/lib/http/path-segments";
import type { Refusal } from "@/server/http/refusals";

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
  /** Who sends a body (`callerIdentifier` over the server's database); without it, cached keys and addresses only. */
  identify?: IdentifyCaller;
};

/**
 * A copy of `req` for Next.js whose body is `body`, complete: Next reads it from memory, never from the
 * socket. The response still goes to the real connection.
 */
function withBufferedBody(req: http.IncomingMessage, body: Buffer): http.IncomingMessage {
  const copy = new http.IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.complete = true;
  if (body.byteLength > 0) copy.push(body);
  copy.push(null);
  return copy;
}

/**
 * Reads a request's body for Next.js (see the top of this file), then hands Next the copy. The listener
 * holds the body's budget until the response closes; the route handler's `withBodyLimit` knows it by the
 * counted mark and does not count it again.
 */
async function readForNext(req: http.IncomingMessage, res: http.ServerResponse, url: URL, identify: IdentifyCaller, handleNext: NextRequestHandler) {
  const method = req.method ?? "GET";
  const limit = bodyLimitFor(url.pathname, method);
  const headers = nodeHeaderReader(req.headers);
  let body: Buffer = Buffer.alloc(0);
  if (declaresBody(headers)) {
    const ticket = bodyTicket(limit, await identify(headers, req.headers[CLIENT_ADDRESS_HEADER] as string | undefined ?? null));
    res.once("close", () => ticket.release());
    try {
      body = await readNodeBody(req, limit, ticket);
    } catch (e) {
      if (e instanceof BodyTooLargeError || e instanceof ServerBusyError || e instanceof BodyStalledError) return sendRefusal(req, res, bodyRefusal(limit, { url, headers }, e));
      return void res.destroy(); // the client broke off its request: nobody to answer
    }
    req.headers[COUNTED_HEADER] = countedMark();
  }
  return handleNext(withBufferedBody(req, body), res);
}

export function lightgateListener(handleStore: http.RequestListener, handleNext: NextRequestHandler, opts: ListenerOptions = {}): http.RequestListener {
  const fallbackHost = opts.fallbackHost ?? "127.0.0.1";
  const handleGate = opts.gateApi && webFastPath(opts.gateApi, fallbackHost, opts.identify);
  const identify = opts.identify ?? (async (headers, address) => knownCaller(headers, address));
  return (req, res) => {
    if (STORE_PATH.test(req.url ?? "")) return handleStore(req, res);
    if (handleGate && GATE_API_PATH.test(req.url ?? "")) return handleGate(req, res);
    const url = requestUrl(req, fallbackHost);
    // Next.js decodes dynamic segments itself and answers a bad encoding with its error page (a 500 in
    // production). Checked here for every path, so proxy.ts need not run — and buffer bodies — for the API.
    if (decodePathSegments(url.pathname) === null) return sendRefusal(req, res, badEncoding(url));
    const refusal = declaredRefusal(req, url);
    if (refusal) return sendRefusal(req, res, refusal);
    // The client's address as this server saw it (never a client-written header), for the sign-in limit.
    stampClientAddress(req, opts.proxyHops);
    delete req.headers[COUNTED_HEADER]; // only this listener says a body was counted
    // GET and HEAD carry no body here (declaredRefusal refused one); Next never reads theirs.
    if (req.method === "GET" || req.method === "HEAD") return void handleNext(req, res);
    readForNext(req, res, url, identify, handleNext).catch((e: unknown) => {
      console.error(`${req.method} ${url.pathname.slice(0, 200)}: could not read the request`, e);
      if (!res.headersSent) sendRefusal(req, res, { status: 500, headers: { "content-type": "application/json", "cache-control": "no-store", connection: "close" }, body: JSON.stringify({ error: "internal", message: "internal error: the server could not read this request (it is logged)" }) });
    });
  };
}

/** The server `npm start` runs, minus listening: store fast path + Next.js, body limits on both. */
export function createLightgateServer(store: StoreHandler, handleNext: NextRequestHandler, opts: ListenerOptions = {}): http.Server {
  const fallbackHost = opts.fallbackHost ?? "127.0.0.1";
  const listener = lightgateListener(nodeListener(store, fallbackHost, opts.identify), handleNext, opts);
  const server = http.createServer(listener);
  server.on("checkContinue", checkContinue(listener, fallbackHost));
  applyServerTimeouts(server);
  return server;
}
