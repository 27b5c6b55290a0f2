// node:http around the store's web-standard handler: the fast path of the production server
// (scripts/serve.ts routes /v1/agl and /v1/traces here, past Next.js), and a bare server for tests and scripts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { API_HEADERS, MAX_BODY_BYTES } from "./io";

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

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  res.writeHead(status, { ...headers, "content-length": String(body.length) });
  res.end(body);
}

/**
 * Adapts a web-standard handler to a node:http listener. Store bodies are small and bounded, so both ways
 * are buffered: node's Readable→web-stream bridge cost more CPU per request than the store work itself.
 */
export function nodeListener(handle: (r: Request) => Promise<Response>, fallbackHost = "127.0.0.1"): http.RequestListener {
  return (req, res) => {
    const url = `http://${req.headers.host ?? fallbackHost}${req.url ?? "/"}`;
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const fail = (e: unknown) => {
      if (res.headersSent) return res.destroy(e as Error);
      send(res, 500, { "content-type": "application/json" }, Buffer.from(JSON.stringify({ detail: (e as Error).message })));
    };
    (hasBody ? readNodeBody(req, MAX_BODY_BYTES) : Promise.resolve(undefined))
      .then(async (body) => {
        if (body === null) return send(res, 413, API_HEADERS, Buffer.from(JSON.stringify({ detail: `body is larger than ${MAX_BODY_BYTES} bytes` })));
        const request = new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body: body && (new Uint8Array(body.buffer, body.byteOffset, body.length) as Uint8Array<ArrayBuffer>) });
        const response = await handle(request);
        send(res, response.status, Object.fromEntries(response.headers), Buffer.from(await response.arrayBuffer()));
      })
      .catch(fail);
  };
}

export async function serveHandler(handle: (r: Request) => Promise<Response>, port = 0, host = "127.0.0.1"): Promise<ServedHandler> {
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
