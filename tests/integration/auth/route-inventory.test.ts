// The route matrix knows every HTTP route: each app/**/route.ts on disk is listed here with the handler it
// delegates to (the one tests/helpers/matrix-server.ts mounts), the store's fast path is the one
// scripts/serve.ts takes, every OTLP route file is a declared signal, and every store route is reached by
// some allowed cell. A new route file, or a route the matrix server does not mount, fails this test.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTLP_SIGNALS } from "@/server/store/http/handler";
import { ROUTES } from "@/server/store/http/routes";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { GATE_API_PATH, STORE_PATH } from "@/server/process/server-listener";
import { GATE_API_ROUTES } from "@/server/gate-api/routes";
import { serveMatrixApp, UNMOUNTED, type MatrixServer } from "../../helpers/matrix-server";
import { gateApiCells, gateApiRoutePath, routeCallers, storeCells, storeRoutePath } from "../../helpers/route-matrix";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Every route file, the route family whose matrix covers it, and the call that shows it delegates there. */
const ROUTE_FILES: Record<string, { family: string; delegatesTo: string }> = {
  "app/api/[...path]/route.ts": { family: "unknown endpoints (JSON 404)", delegatesTo: "unknownEndpointRoute(" },
  "app/v1/[...path]/route.ts": { family: "unknown endpoints (JSON 404)", delegatesTo: "unknownEndpointRoute(" },
  "app/api/auth/[...all]/route.ts": { family: "auth (SERVED_AUTH_PATHS)", delegatesTo: "handleAuthRequest(" },
  "app/api/health/route.ts": { family: "health (public)", delegatesTo: "healthResponse(" },
  "app/api/trpc/[trpc]/route.ts": { family: "tRPC (every procedure's scope)", delegatesTo: "handleTrpcRequest(req)" },
  "app/v1/agl/[...path]/route.ts": { family: "store (ROUTES[].access)", delegatesTo: "getStoreRuntime()" },
  "app/v1/traces/route.ts": { family: "OTLP (OTLP_SIGNALS)", delegatesTo: "getStoreRuntime()" },
  "app/v1/metrics/route.ts": { family: "OTLP (OTLP_SIGNALS)", delegatesTo: "getStoreRuntime()" },
  "app/v1/logs/route.ts": { family: "OTLP (OTLP_SIGNALS)", delegatesTo: "getStoreRuntime()" },
  "app/v1/development/profiles/route.ts": { family: "OTLP (OTLP_SIGNALS)", delegatesTo: "getStoreRuntime()" },
  "app/v1/pointers/[agent]/[pointer]/route.ts": { family: "gate (GATE_ROUTE_ACCESS.pointer)", delegatesTo: "servePointerPath(" },
  "app/v1/pointers/[agent]/[pointer]/resources/route.ts": { family: "gate (GATE_ROUTE_ACCESS.pointerResources)", delegatesTo: "servePointerPath(" },
  "app/v1/receipts/[candidateId]/route.ts": { family: "gate (GATE_ROUTE_ACCESS.receipt)", delegatesTo: "serveReceiptPath(" },
  "app/v1/receipts/public-key/route.ts": { family: "gate (GATE_ROUTE_ACCESS.publicKey)", delegatesTo: "handlePublicKeyRequest(" },
  "app/v1/gate/[...path]/route.ts": { family: "gate API (GATE_API_ROUTES[].access)", delegatesTo: "serveGateApi(" },
};

const onDisk = (fs.readdirSync(path.join(ROOT, "app"), { recursive: true }) as string[])
  .map((f) => `app/${f.split(path.sep).join("/")}`)
  .filter((f) => /(^|\/)route\.(ts|tsx|js)$/.test(f))
  .sort();

/** The URL a route file answers (dynamic segments filled in, route groups dropped). */
const urlOf = (file: string) =>
  `/${file.replace(/^app\//, "").replace(/\/route\.\w+$/, "")}`
    .split("/")
    .filter((s) => !/^\(.*\)$/.test(s))
    .map((s) => (s.startsWith("[") ? "matrix-probe" : s))
    .join("/");

describe("route inventory", () => {
  it("every route file on disk is one the matrix knows, and every one it knows exists", () => {
    expect(onDisk).toEqual(Object.keys(ROUTE_FILES).sort());
  });

  it.each(Object.entries(ROUTE_FILES))("%s delegates to what the matrix serves", (file, { delegatesTo }) => {
    expect(fs.readFileSync(path.join(ROOT, file), "utf8")).toContain(delegatesTo);
  });

  it("the store's fast path is the one the production server takes, and so is the gate API's (the same handler the route file calls)", () => {
    const serve = fs.readFileSync(path.join(ROOT, "scripts/serve.ts"), "utf8");
    expect(serve).toContain("createLightgateServer(");
    expect(STORE_PATH.test("/v1/agl/rollouts") && STORE_PATH.test("/v1/traces") && !STORE_PATH.test("/v1/pointers/a/b")).toBe(true);
    expect(serve).toMatch(/serveGateApi\(database, request\)[\s\S]*gateApi \}\)/);
    expect(GATE_API_PATH.test("/v1/gate/datasets") && GATE_API_PATH.test("/v1/gate") && !GATE_API_PATH.test("/v1/gates") && !GATE_API_PATH.test("/v1/agl/x")).toBe(true);
  });

  it("every gate API route is declared once and some caller is allowed it", () => {
    const keys = GATE_API_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const cells = gateApiCells(routeCallers());
    for (const route of GATE_API_ROUTES) {
      const allowed = cells.filter((c) => c.method === route.method && c.path === gateApiRoutePath(route.path) && c.expected === "allowed");
      expect(allowed.length, `${route.method} ${route.path}: no caller is allowed it`).toBeGreaterThan(0);
    }
  });

  it("every OTLP route file is a declared signal, and every declared signal has its route file", () => {
    const otlpFiles = Object.entries(ROUTE_FILES).filter(([, r]) => r.family.startsWith("OTLP")).map(([f]) => urlOf(f));
    expect(otlpFiles.sort()).toEqual([...OTLP_SIGNALS.keys()].sort());
  });

  it("every store route is declared once and some caller is allowed it, so the matrix sees it reached", () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const cells = storeCells(routeCallers());
    for (const route of ROUTES) {
      const allowed = cells.filter((c) => c.method === route.method && c.path === storeRoutePath(route) && c.expected === "allowed");
      expect(allowed.length, `${route.method} ${route.path}: no caller is allowed it`).toBeGreaterThan(0);
    }
  });

  describe("the matrix server mounts every route file's URL", () => {
    let database: TestDatabase;
    let server: MatrixServer;
    beforeAll(async () => {
      database = await createTestDatabase("sqlite", "route-inventory");
      server = await serveMatrixApp(database);
    });
    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it.each(onDisk)("%s", async (file) => {
      const res = await fetch(new URL(urlOf(file), server.url));
      await res.arrayBuffer();
      expect(res.headers.get(UNMOUNTED), `${urlOf(file)} is not mounted by tests/helpers/matrix-server.ts`).toBeNull();
    });
  });
});
