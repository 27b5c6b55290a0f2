// A plain node:http server around a web-standard handler (tests, the restart check, scripts). The
// production server is Next.js; this exists so the same handler can be served without a build.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export type ServedHandler = { url: string; server: http.Server; close(): Promise<void> };

export async function serveHandler(handle: (r: Request) => Promise<Response>, port = 0, host = "127.0.0.1"): Promise<ServedHandler> {
  const server = http.createServer((req, res) => {
    const url = `http://${req.headers.host ?? host}${req.url ?? "/"}`;
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
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: (e as Error).message }));
      });
  });
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
