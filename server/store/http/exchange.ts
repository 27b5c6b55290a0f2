// The store's own request and response: plain data, so the node:http fast path (node-server.ts) hands a
// buffered body straight to the routes and writes their answer straight to the socket. Building a web
// Request and Response per call cost more CPU than the store work on small bodies. Next.js route
// handlers and tests speak web Request/Response through `toWebHandler`.
import { API_HEADERS, HttpError, MAX_BODY_BYTES, readBody, type StoreBody, type StoreResponse } from "./io";

export type HeaderReader = { get(name: string): string | null };

export type StoreRequest = {
  method: string;
  url: URL;
  headers: HeaderReader;
  /** The whole body (already bounded by MAX_BODY_BYTES); null when the request has none. */
  body: Uint8Array | null;
};

// The response shape lives with the helpers that build it (io.ts), so io.ts needs nothing from here.
export type { StoreBody, StoreResponse } from "./io";
export type StoreHandler = (request: StoreRequest) => Promise<StoreResponse>;

/** node:http's header object (lower-case keys; repeated headers as arrays) as a HeaderReader. */
export function nodeHeaders(headers: Record<string, string | string[] | undefined>): HeaderReader {
  return {
    get(name) {
      const v = headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    },
  };
}

function webBody(body: StoreBody): BodyInit | null {
  if (body === null || typeof body === "string" || body instanceof Uint8Array) return body as BodyInit | null;
  if (Array.isArray(body)) return new Uint8Array(Buffer.concat(body.map((part) => (typeof part === "string" ? Buffer.from(part) : part))));
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
    let body: Uint8Array | null = null;
    if (request.body) {
      try {
        body = await readBody(request, MAX_BODY_BYTES);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        return new Response(JSON.stringify({ detail: e.detail }), { status: e.status, headers: API_HEADERS });
      }
    }
    const res = await handle({ method: request.method, url: new URL(request.url), headers: request.headers, body });
    return new Response(webBody(res.body), { status: res.status, headers: res.headers });
  };
}
