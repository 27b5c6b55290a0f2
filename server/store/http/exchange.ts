// The store's own request and response: plain data, so the node:http fast path (node-server.ts) hands the
// request straight to the routes and writes their answer straight to the socket. Building a web Request
// and Response per call cost more CPU than the store work on small bodies. Next.js route handlers and
// tests speak web Request/Response through `toWebHandler`.
import { gunzipSync } from "node:zlib";
import { bodyLimitFor, bodyTicket, declaredTooLarge, declaresBody } from "@/server/http/body-limits";
import { bodyRefusalResponse } from "@/server/http/refusals";
import { readWebBody } from "@/server/http/web-body";
import { knownCaller } from "@/server/auth/body-caller";
import { requestClientAddress } from "@/server/auth/client-address";
import { partBytes, writePart, type StoreBody, type StoreResponse } from "./io";

export type HeaderReader = { get(name: string): string | null };

export type StoreRequest = {
  method: string;
  url: URL;
  headers: HeaderReader;
  /**
   * The whole body, read when first asked for — after the caller's key was checked, so nobody without
   * one gets a byte buffered — and held to the route family's limit (server/http/body-limits.ts): rejects
   * with BodyTooLargeError over it. Null when the request has none (GET).
   */
  body(): Promise<Uint8Array | null>;
  /** Counts more bytes this request holds (an inflated body) against its family's in-flight budget; false when spent. */
  hold(bytes: number): boolean;
  /** Told the id of the API key the route's check accepted, so the body budget charges it without judging the key again. */
  identified?(keyId: string): void;
};

// The response shape lives with the helpers that build it (io.ts), so io.ts needs nothing from here.
export type { StoreBody, StoreResponse } from "./io";
export type StoreHandler = (request: StoreRequest) => Promise<StoreResponse>;

function webBody(body: StoreBody): BodyInit | null {
  if (body === null || typeof body === "string" || body instanceof Uint8Array) return body as BodyInit | null;
  if (Array.isArray(body)) {
    const bytes = Buffer.allocUnsafe(body.reduce((n, part) => n + partBytes(part), 0));
    body.reduce((at, part) => writePart(bytes, at, part), 0);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const iterator = body[Symbol.asyncIterator]();
  const enc = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === "string" ? enc.encode(next.value) : next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** The store handler as a web-standard one (Next.js route handlers, tests). */
export function toWebHandler(handle: StoreHandler): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const limit = bodyLimitFor(url.pathname, request.method);
    const declared = declaredTooLarge(request.headers, request.method, limit);
    if (declared) return bodyRefusalResponse(limit, request, declared);
    let read: Promise<Uint8Array | null> | undefined;
    let complete = !declaresBody(request.headers);
    // The body is read after the key check, so by the first byte the key is in its cache.
    const ticket = bodyTicket(limit, () => knownCaller(request.headers, requestClientAddress(request.headers)));
    const body = () =>
      (read ??= request.method === "GET" || request.method === "HEAD" || !request.body ? Promise.resolve(null) : readWebBody(request, limit, ticket).then((b) => ((complete = true), b)));
    let res: StoreResponse;
    try {
      res = await handle({ method: request.method, url, headers: request.headers, body, hold: (n) => ticket.take(n) });
    } finally {
      ticket.release();
    }
    // Answered without reading all of a body the client sends (refused, or never needed): close, so the
    // client cannot keep streaming it into this connection.
    const headers = complete ? res.headers : { ...res.headers, connection: "close" };
    // Next.js drops Content-Encoding from route handlers' answers, so a gzipped one (OTLP, when the client
    // accepts gzip) would arrive undecodable: the web form answers uncompressed.
    if (headers["content-encoding"] === "gzip" && res.body instanceof Uint8Array) {
      const { "content-encoding": _gzip, ...plain } = headers;
      return new Response(new Uint8Array(gunzipSync(res.body)), { status: res.status, headers: plain });
    }
    return new Response(webBody(res.body), { status: res.status, headers });
  };
}
