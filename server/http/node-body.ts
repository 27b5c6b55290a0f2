// Body limits on node:http (the production server and the store's fast path): the declared length is
// judged before a byte is read, a streamed body is counted as it arrives and reading stops at the limit,
// and an answer given while the client is still sending says `Connection: close` — node then closes the
// socket once the answer is out, so the client cannot go on streaming into the server.
import type http from "node:http";
import { BodyAbortedError, BodyStalledError, BodyTooLargeError, bodyLimitFor, declaredTooLarge, declaresBody, ServerBusyError, watchBodyRate, type BodyLimit, type BodyTicket } from "./body-limits";
import { bodyRefusal, type Refusal } from "./refusals";

type Headers = { get(name: string): string | null };

export function nodeHeaderReader(headers: http.IncomingHttpHeaders): Headers {
  return {
    get(name) {
      const v = headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    },
  };
}

/** The request's URL; a Host header that does not parse falls back to `fallbackHost`. */
export function requestUrl(req: http.IncomingMessage, fallbackHost: string): URL {
  try {
    return new URL(req.url ?? "/", `http://${req.headers.host ?? fallbackHost}`);
  } catch {
    return new URL(req.url ?? "/", `http://${fallbackHost}`);
  }
}

/**
 * Buffers the body up to `limit.bytes`, taking its bytes from the family's in-flight budget through `ticket`
 * as they arrive — never the declared length, which costs a stranger nothing to claim. Rejects with
 * BodyTooLargeError at the limit, ServerBusyError when the budget (or the caller's share) is spent,
 * BodyStalledError when it arrives slower than BODY_READ allows; either way it stops reading and gives the
 * budget back at once (the caller's `release` when the response closes covers the rest).
 */
export function readNodeBody(req: http.IncomingMessage, limit: BodyLimit, ticket: BodyTicket): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const method = req.method ?? "POST";
    const declared = declaredTooLarge(nodeHeaderReader(req.headers), method, limit);
    if (declared) return reject(declared);
    if (req.complete && req.readableFlowing === null) {
      // The whole body arrived with the head (a store call's few KB usually does): taken from the stream's
      // buffer at once — no flowing mode, no listeners, no read-rate timer for bytes that are all here.
      const whole = (req.read() as Buffer | null) ?? Buffer.alloc(0);
      if (whole.length > limit.bytes) return reject(new BodyTooLargeError(limit, method));
      if (!ticket.take(whole.length)) return reject(new ServerBusyError(limit, ticket.shortfall));
      return resolve(whole);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error) => {
      unwatch();
      req.off("data", onData);
      req.pause();
      chunks.length = 0;
      ticket.release();
      reject(error);
    };
    const unwatch = watchBodyRate(
      () => size,
      () => stop(new BodyStalledError(limit, size)),
    );
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit.bytes) return stop(new BodyTooLargeError(limit, method));
      if (!ticket.take(chunk.length)) return stop(new ServerBusyError(limit, ticket.shortfall));
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => {
      unwatch();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    const aborted = (e?: Error) => {
      if (req.complete) return; // the body had ended: the handler holds it (and its budget) now
      stop(new BodyAbortedError(e));
    };
    req.once("error", aborted);
    req.once("close", () => aborted());
  });
}

/** `Connection: close` when the client has sent a body that was not (all) read: the rest is never read. */
export function closeIfUnread(req: http.IncomingMessage, headers: Record<string, string>): Record<string, string> {
  return !req.complete && declaresBody(nodeHeaderReader(req.headers)) ? { ...headers, connection: "close" } : headers;
}

const LINGER_MS = 1_000;
const lingering = new WeakSet<object>();

/**
 * Makes node's close of this connection — after an answer with `Connection: close` — a lingering one: the
 * answer goes out followed by a FIN, whatever the client is still sending is read and dropped for a moment,
 * then the socket is destroyed. Destroying it at once, with the client's bytes still unread, makes the kernel
 * answer with a reset, and the client often loses the 413 it was about to read.
 */
export function lingerOnClose(req: http.IncomingMessage): void {
  const socket = req.socket as http.IncomingMessage["socket"] & { destroySoon?: () => void };
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  let closing = false;
  // node's http server calls destroySoon() once an answer marked `Connection: close` is written
  socket.destroySoon = () => {
    if (closing) return;
    closing = true;
    req.removeAllListeners("data");
    req.removeAllListeners("readable"); // resume() does nothing while a 'readable' listener is attached
    req.resume();
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
}

export function sendRefusal(req: http.IncomingMessage, res: http.ServerResponse, refusal: Refusal): void {
  lingerOnClose(req);
  const bytes = typeof refusal.body === "string" ? Buffer.from(refusal.body) : refusal.body;
  res.writeHead(refusal.status, { ...refusal.headers, "content-length": String(bytes.byteLength) });
  res.end(bytes);
}

/**
 * The 413 for a declared length over the request's limit, or null (judged from the headers alone). A caller
 * that already has the limit and a header reader passes them.
 */
export function declaredRefusal(req: http.IncomingMessage, url: URL, limit = bodyLimitFor(url.pathname, req.method ?? "GET"), headers = nodeHeaderReader(req.headers)): Refusal | null {
  const error = declaredTooLarge(headers, req.method ?? "GET", limit);
  return error ? bodyRefusal(limit, { url, headers }, error) : null;
}

/**
 * For `server.on("checkContinue", …)`: a client that sends `Expect: 100-continue` (curl does above 1 MB)
 * learns about a declared length over the limit before it sends the body; otherwise it is told to go on.
 */
export function checkContinue(listener: http.RequestListener, fallbackHost = "127.0.0.1"): http.RequestListener {
  return (req, res) => {
    const refusal = declaredRefusal(req, requestUrl(req, fallbackHost));
    if (refusal) return sendRefusal(req, res, refusal);
    res.writeContinue();
    listener(req, res);
  };
}

/**
 * Connection timeouts for both servers, a backstop: node checks them on a sweep every 30 s, so a stalled body
 * is cut by its own timer instead (BODY_READ in body-limits.ts, watched while it is read).
 */
export function applyServerTimeouts(server: http.Server): http.Server {
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}
