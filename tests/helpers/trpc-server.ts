// The tRPC endpoint over real HTTP, mounted as app/api/trpc/[trpc]/route.ts mounts it (handleTrpcRequest:
// cross-site refusal, batch limit, createContext from the request's headers), on a node:http server bound to
// a test database. `context` replaces how each call's context is made (e.g. a database that fails).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Database } from "@/server/db/client";
import type { Context } from "@/server/trpc";
import { handleTrpcRequest } from "@/server/trpc-http";

export type TrpcServer = { url: string; close(): Promise<void> };

function webRequest(req: http.IncomingMessage, body: Buffer, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`${origin}${req.url ?? "/"}`, { method: req.method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

export async function serveTrpc(database: Database, context?: (headers: Headers) => Promise<Context>): Promise<TrpcServer> {
  let origin = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = webRequest(req, Buffer.concat(chunks), origin);
      void handleTrpcRequest(request, { database, context })
        .then(async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
        })
        .catch((e: unknown) => {
          res.writeHead(599);
          res.end(String(e));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api/trpc`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
