// node:http around the store's handler: the fast path of the production server
// (scripts/serve.ts routes /v1/agl and /v1/traces here, past Next.js), and a bare server for tests and scripts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHeaders, type StoreHandler, type StoreResponse } from "./exchange";
import { detail, json, MAX_BODY_BYTES } from "./io";

export type ServedHandler = { url: string; server: http.Server; close(): Promise<void> };

/** Buffers a request body up to `max` bytes; null when it is larger (the caller answers 413 without reading on). */
function readNodeBody(req: http.IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.resume();
        return resolve(null);
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once("error", reject);
  });
}

/** Writes a StoreResponse; streamed bodies go chunk by chunk, waiting for the socket to drain. */
async function send(res: http.ServerResponse, response: StoreResponse): Promise<void> {
  const body = response.body;
  if (body === null || typeof body === "string" || body instanceof Uint8Array) {
    const bytes = body === null ? EMPTY : typeof body === "string" ? Buffer.from(body) : body;
    res.writeHead(response.status, { ...response.headers, "content-length": String(bytes.byteLength) });
    res.end(bytes);
    return;
  }
  if (Array.isArray(body)) {
    let length = 0;
    for (const part of body) length += typeof part === "string" ? Buffer.byteLength(part) : part.byteLength;
    res.writeHead(response.status, { ...response.headers, "content-length": String(length) });
    res.cork(); // one writev for all parts
    for (const part of body) res.write(part);
    res.end();
    return;
  }
  res.writeHead(response.status, response.headers);
  const iterator = body[Symbol.asyncIterator]();
  res.once("close", () => void iterator.return?.()); // the client went away: stop reading the store
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    if (res.destroyed) return;
    if (!res.write(next.value)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}
const EMPTY = new Uint8Array();

/**
 * Serves a StoreHandler on node:http. Store bodies are bounded, so requests are buffered: node's
 * Readable→web-stream bridge cost more CPU per request than the store work itself.
 */
export function nodeListener(handle: StoreHandler, fallbackHost = "127.0.0.1"): http.RequestListener {
  return (req, res) => {
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const fail = (e: unknown) => {
      if (res.headersSent) return res.destroy(e as Error);
      void send(res, json({ detail: (e as Error).message }, 500));
    };
    (hasBody ? readNodeBody(req, MAX_BODY_BYTES) : Promise.resolve(undefined))
      .then(async (body) => {
        if (body === null) return send(res, detail(413, `body is larger than ${MAX_BODY_BYTES} bytes`));
        const url = new URL(req.url ?? "/", `http://${req.headers.host ?? fallbackHost}`);
        return send(res, await handle({ method: req.method ?? "GET", url, headers: nodeHeaders(req.headers), body: body ?? null }));
      })
      .catch(fail);
  };
}

export async function serveHandler(handle: StoreHandler, port = 0, host = "127.0.0.1"): Promise<ServedHandler> {
  const server = http.createServer(nodeListener(handle, host));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
