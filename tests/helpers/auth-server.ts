// better-auth's (or any fetch-style) handler behind a real node:http server that treats requests the way scripts/serve.ts does
// (the client address stamped from the socket and the trusted proxy hops), and a client that can choose
// which loopback address it connects from — so tests can be "different machines" on one host.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getAuth } from "@/server/auth/better-auth";
import { stampClientAddress, withClientAddress } from "@/server/auth/client-address";
import { publicOrigin } from "@/server/auth/origin";
import type { Database } from "@/server/db/client";

export type Served = { url: string; close(): Promise<void> };

export async function serveAuth(database: Database, opts: { trustedProxyHops: number; port?: number }): Promise<Served> {
  const auth = await getAuth(database);
  return serveFetch((request) => auth.handler(withClientAddress(request, opts.trustedProxyHops)), opts);
}

/** Any fetch-style handler on node:http, requests stamped with their client address as serve.ts does. */
export async function serveFetch(handle: (request: Request) => Promise<Response>, opts: { trustedProxyHops?: number; port?: number } = {}): Promise<Served> {
  const server = http.createServer((req, res) => {
    stampClientAddress(req, opts.trustedProxyHops ?? 0);
    void toFetchRequest(req)
      .then(handle)
      .then(async (response) => {
        for (const [k, v] of response.headers) if (k !== "set-cookie") res.setHeader(k, v);
        res.setHeader("set-cookie", response.headers.getSetCookie());
        res.writeHead(response.status).end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((e: unknown) => (res.headersSent ? res.destroy() : res.writeHead(500).end(String(e))));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function toFetchRequest(req: http.IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
  return new Request(`${publicOrigin().origin}${req.url}`, { method: req.method, headers, body });
}

/** POSTs JSON from `localAddress` (any 127.x.y.z on Linux); answers status and headers. */
export function postFrom(localAddress: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const payload = JSON.stringify(body);
  const { origin } = publicOrigin();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", localAddress, headers: { "content-type": "application/json", origin, "content-length": Buffer.byteLength(payload), ...headers } }, (res) => {
      res.resume();
      res.once("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.once("error", reject);
    req.end(payload);
  });
}
