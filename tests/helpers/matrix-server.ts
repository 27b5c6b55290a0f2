// Lightgate's HTTP surface on a real node:http server, mounted as the app mounts it: the store API and
// OTLP on the node:http fast path (scripts/serve.ts), and — as app/**/route.ts do — tRPC's fetch handler,
// better-auth, the gate's pointer and receipt handlers and the gate API. tests/integration/auth/route-inventory.test.ts
// checks that every route file delegates to the handler mounted here.
//
// `refusing: true` serves the same handlers over a store and a database that fail on any use beyond
// identifying the caller (API keys, sessions, roles): the matrix sends refused cells there, so a refusal
// provably came before any work.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleAuthRequest } from "@/server/http/auth-endpoints";
import { publicOrigin } from "@/server/auth/origin";
import type { Database } from "@/server/db/client";
import { handlePublicKeyRequest, servePointerPath, serveReceiptPath } from "@/server/receipts/http";
import { serveGateApi } from "@/server/gate-api/http";
import { unknownEndpoint } from "@/server/http/api-route";
import { STORE_PATH } from "@/server/process/server-listener";
import { handleTrpcRequest } from "@/server/trpc-http";
import { createStore, type LightningStore } from "@/server/store";
import { createStoreHandler } from "@/server/store/http/handler";
import { nodeListener } from "@/server/store/http/node-server";
import { healthResponse } from "@/server/system/health";
import { createContext } from "@/server/trpc";
import { untouchableDatabase } from "./permission-matrix";

export type MatrixServer = { url: string; close(): Promise<void> };

/** Marks the answer for a path this server does not mount. */
export const UNMOUNTED = "x-matrix-unmounted";


/** What identifying a caller reads: API keys, sessions (and the key that signs them), people and their roles. */
const IDENTITY_MODELS = new Set(["apiKey", "authSession", "user", "roleAssignment", "systemSetting"]);

/** `database` limited to identifying the caller: any other use throws (and fails the cell with a 500). */
export function identityOnly(database: Database): Database {
  const db = new Proxy(database.db, {
    get(target, prop) {
      // Prisma's own metadata (`_runtimeDataModel`, which better-auth's adapter reads) is not a query.
      if (typeof prop === "symbol" || prop === "then" || prop.startsWith("_") || IDENTITY_MODELS.has(prop)) return Reflect.get(target, prop) as unknown;
      throw new Error(`the request touched the database (${prop}) before refusing`);
    },
  });
  return new Proxy(database, {
    get(target, prop) {
      if (prop === "db") return db;
      if (prop === "target" || prop === "then" || typeof prop === "symbol") return Reflect.get(target, prop) as unknown;
      throw new Error(`the request touched the database (${String(prop)}) before refusing`);
    },
  });
}

const untouchableStore = new Proxy({} as LightningStore, {
  get(_t, prop) {
    if (prop === "then") return undefined;
    throw new Error(`the request touched the store (${String(prop)}) before refusing`);
  },
});

async function readAll(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function toWebRequest(req: http.IncomingMessage): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(await readAll(req));
  // Behind the deployment's origin, as a proxy in front of the server presents it.
  return new Request(new URL(req.url ?? "/", publicOrigin().origin), { method: req.method, headers, body });
}

async function sendWeb(res: http.ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, "content-length": String(body.byteLength) });
  res.end(body);
}

/** The app's routes other than the store's, as app/**\/route.ts mount them. */
function appRoutes(database: Database, refusing: boolean): (request: Request) => Promise<Response> {
  const identified = refusing ? identityOnly(database) : database;
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/api/trpc/")) {
      return handleTrpcRequest(request, {
        context: async (headers) => {
          const ctx = await createContext({ headers, database: identified });
          return refusing ? { ...ctx, db: untouchableDatabase.db, database: untouchableDatabase } : ctx;
        },
      });
    }
    if (pathname.startsWith("/api/auth/")) return handleAuthRequest(database, request);
    if (pathname === "/api/health") return healthResponse(async () => database);
    if (pathname === "/v1/receipts/public-key") return handlePublicKeyRequest(identified, request);
    if (pathname.startsWith("/v1/pointers/")) return servePointerPath(identified, request);
    if (pathname.startsWith("/v1/receipts/")) return serveReceiptPath(identified, request);
    if (pathname === "/v1/gate" || pathname.startsWith("/v1/gate/")) return serveGateApi(identified, request);
    // The catch-all routes (app/api/[...path], app/v1/[...path]) for a one-segment path nothing else serves;
    // deeper unknown paths stay marked, so a route file the matrix does not mount still shows.
    if (/^\/(api|v1)\/[^/]+$/.test(pathname)) return unknownEndpoint(request);
    return new Response("Not Found", { status: 404, headers: { [UNMOUNTED]: "1" } });
  };
}

export async function serveMatrixApp(database: Database, opts: { refusing?: boolean } = {}): Promise<MatrixServer> {
  const refusing = opts.refusing ?? false;
  const store = refusing ? untouchableStore : createStore(database, { scanDebounceMs: 0 });
  const storeListener = nodeListener(createStoreHandler({ store, db: refusing ? identityOnly(database).db : database.db, allowAnonymous: false }));
  const app = appRoutes(database, refusing);
  const server = http.createServer((req, res) => {
    if (STORE_PATH.test(req.url ?? "")) return storeListener(req, res);
    toWebRequest(req)
      .then(app)
      .then((response) => sendWeb(res, response))
      .catch((e: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(`matrix server: ${(e as Error).message}`);
      });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!refusing) await store.close();
    },
  };
}
