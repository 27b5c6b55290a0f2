// Route handler modules (app/**/route.ts) served the way Next.js serves them, without a Next build: the
// node request becomes a web Request whose body is the IncomingMessage itself (duplex "half"; none for GET
// and HEAD — Next's NextRequestAdapter does the same), and the Response is written back with its headers as
// given. Used for the route-handler path of plain `next start`, and as the Next side of the production
// server's listener (server/process/server-listener.ts) in tests.
import type http from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", Handler>>;
export type Route = { pattern: RegExp; module: RouteModule; params?: (m: RegExpMatchArray) => Record<string, string> };

export function nextLike(routes: Route[]) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    try {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
      const route = routes.map((r) => ({ r, m: url.pathname.match(r.pattern) })).find((x) => x.m);
      if (!route) return void res.writeHead(404).end("not found");
      const handler = route.r.module[(req.method ?? "GET") as keyof RouteModule];
      if (!handler) return void res.writeHead(405).end("method not allowed");
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(url, { method: req.method, headers, body: hasBody ? (req as unknown as BodyInit) : null, duplex: "half" } as RequestInit);
      const response = await handler(request, { params: Promise.resolve(route.r.params?.(route.m!) ?? {}) });
      const out: Record<string, string | string[]> = {};
      response.headers.forEach((v, k) => (out[k] = k === "set-cookie" ? response.headers.getSetCookie() : v));
      res.writeHead(response.status, out);
      if (response.body) {
        const reader = response.body.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
      }
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`route handler threw: ${(e as Error).message}`);
    }
  };
}

export async function listen(server: http.Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
