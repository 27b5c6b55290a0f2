// What the production listener (scripts/serve.ts) does in front of Next.js. It reads a request's body whole
// before Next sees it, so a body that stops arriving is answered by the listener (408) and the connection
// closed. The answer must say `Connection: close`: a keep-alive client told nothing reuses the socket for its
// next request, which then meets the close ("socket hang up"). Found by the hostile-input bench (2 of 5,000
// auth requests went unanswered).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLightgateServer } from "@/server/process/server-listener";

let server: http.Server;
let port: number;

beforeAll(async () => {
  const noStore = async () => ({ status: 404, headers: {}, body: null });
  // A "Next.js" that answers at once, reading nothing.
  server = createLightgateServer(noStore, (_req, res) => {
    res.statusCode = 404;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ message: "no such page" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("a body that stops arriving is answered 408 with Connection: close, and the next request on a new socket is answered", { timeout: 20_000 }, async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (body: boolean) =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/auth/nowhere", agent, headers: { "content-type": "application/json", "content-length": body ? "4000" : "0" } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      });
      req.on("error", reject);
      if (body) req.write("{".padEnd(100, " ")); // 100 of the 4,000 declared bytes, then nothing
      else req.end();
    });
  const first = await send(true);
  expect(first).toEqual({ status: 408, connection: "close" });
  expect((await send(false)).status).toBe(404);
  agent.destroy();
});

it("a path that is not valid percent-encoding is a 400 in front of Next.js, in tRPC's shape on tRPC paths", async () => {
  type TrpcItem = { error?: { json?: { message?: string; data?: { httpStatus?: number } } } };
  for (const path of ["/v1/gate/%E0%A4%A", "/candidates/%E0%A4%A"]) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    expect(res.status, path).toBe(400);
    expect(((await res.json()) as { message?: string }).message, path).toMatch(/not valid percent-encoding/);
  }
  // As the tRPC client reads errors: superjson's {json} envelope, an array for a batch.
  const single = await fetch(`http://127.0.0.1:${port}/api/trpc/%E0%A4%A?input=%7B%7D`);
  expect(single.status).toBe(400);
  const item = (await single.json()) as TrpcItem;
  expect(item.error?.json?.message).toMatch(/not valid percent-encoding/);
  expect(item.error?.json?.data?.httpStatus).toBe(400);
  const batch = await fetch(`http://127.0.0.1:${port}/api/trpc/%ED%A0%80?batch=1&input=%7B%7D`);
  expect(batch.status).toBe(400);
  const items = (await batch.json()) as TrpcItem[];
  expect(items).toHaveLength(1);
  expect(items[0]!.error?.json?.message).toMatch(/not valid percent-encoding/);
});
