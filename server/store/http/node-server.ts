// node:http around the store's web-standard handler: the fast path of the production server
// (scripts/serve.ts routes /v1/agl and /v1/traces here, past Next.js), and a bare server for tests and scripts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export type ServedHandler = { url: string; server: http.Server; close(): Promise<void> };

/** Adapts a web-standard handler to a node:http listener (streams the body both ways). */
export function nodeListener(handle: (r: Request) => Promise<Response>, fallbackHost = "127.0.0.1"): http.RequestListener {
  return (req, res) => {
    const url = `http://${req.headers.host ?? fallbackHost}${req.url ?? "/"}`;
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: "half",
    } as RequestInit);
    handle(request)
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (!response.body) return res.end();
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
        res.end();
      })
      .catch((e: unknown) => {
        if (res.headersSent) return res.destroy(e as Error);
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: (e as Error).message }));
      });
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
