// The store's HTTP surface, framework-free: a web Request in, a Response out. Next.js route handlers under
// app/v1/ call `handle`, and tests wrap it in a plain node:http server. Routes: /v1/agl/* (routes.ts),
// POST /v1/traces (otlp.ts), and 501 for the OTLP signals the store does not take.
import type { Db } from "@/server/db/client";
import { StoreInputError, StoreNotFoundError } from "../errors";
import type { LightningStore } from "../index";
import { authorize } from "./auth";
import { detail, HttpError, json, readJson } from "./io";
import { handleOtlpTraces } from "./otlp";
import { ROUTES, type Route } from "./routes";

export type StoreHttpOptions = { store: LightningStore; db: Db; allowAnonymous: boolean };

const compiled = ROUTES.map((r) => ({ route: r, parts: r.path.split("/") }));

function match(segments: string[], method: string): { route: Route; params: string[] } | "method" | null {
  let otherMethod = false;
  for (const { route, parts } of compiled) {
    if (parts.length !== segments.length) continue;
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      if (parts[i]!.startsWith(":")) params.push(segments[i]!);
      else if (parts[i] !== segments[i]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (route.method === method) return { route, params };
    otherMethod = true;
  }
  return otherMethod ? "method" : null;
}

function errorResponse(e: unknown): Response {
  if (e instanceof HttpError) return json({ detail: e.detail }, e.status);
  if (e instanceof StoreNotFoundError) return detail(404, e.message);
  if (e instanceof StoreInputError) return detail(400, e.message);
  console.error("store: unexpected error", e);
  return json({ detail: "Internal server error", error_type: (e as Error)?.name ?? "Error" }, 500);
}

export function createStoreHttpHandler(opts: StoreHttpOptions) {
  return async function handle(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url);
      const path = url.pathname.replace(/\/+$/, "");
      if (path === "/v1/traces") {
        if (request.method !== "POST") return detail(405, "Method Not Allowed");
        await authorize(request, "store:write", opts.db, opts.allowAnonymous);
        return await handleOtlpTraces(request, opts.store);
      }
      if (path === "/v1/metrics" || path === "/v1/logs" || path === "/v1/development/profiles") return new Response(null, { status: 501 });
      if (!path.startsWith("/v1/agl/")) return detail(404, "Not Found");
      let segments: string[];
      try {
        segments = path.slice("/v1/agl/".length).split("/").map(decodeURIComponent);
      } catch {
        return detail(400, "the path is not valid percent-encoding");
      }
      if (segments.some((s) => s.length === 0 || s.length > 512 || s.includes("\u0000"))) return detail(404, "Not Found");
      const found = match(segments, request.method);
      if (found === null) return detail(404, "Not Found");
      if (found === "method") return detail(405, "Method Not Allowed");
      await authorize(request, found.route.access, opts.db, opts.allowAnonymous);
      let body: Promise<unknown> | undefined;
      return await found.route.handle({ store: opts.store, params: found.params, url, body: () => (body ??= readJson(request)) });
    } catch (e) {
      return errorResponse(e);
    }
  };
}
