// The store's HTTP surface, framework-free: a StoreRequest in, a StoreResponse out (exchange.ts). The
// node:http fast path serves it directly; Next.js route handlers under app/v1/ use its web-standard form.
// Routes: /v1/agl/* (routes.ts), POST /v1/traces (otlp.ts), and 501 for the OTLP signals the store does
// not take.
import { BAD_PERCENT_ENCODING, decodePathSegments } from "@/lib/http/path-segments";
import type { Database, Db } from "@/server/db/client";
import { BodyAbortedError, BodyStalledError, BodyTooLargeError, ServerBusyError } from "@/server/http/body-limits";
import { StoreForbiddenError, StoreInputError, StoreNotFoundError } from "../errors";
import type { LightningStore } from "../index";
import type { Actor } from "@/server/auth/actor";
import { recordEdgeRefusal } from "@/server/http/edge-refusals";
import { ANONYMOUS_STORE_ACTOR, authorize, viewerOf, type Access } from "./auth";
import { toWebHandler, type StoreHandler, type StoreRequest, type StoreResponse } from "./exchange";
import { detail, HttpError, json, readJson } from "./io";
import { otlpRefusal } from "@/server/http/otlp-reply";
import { handleOtlpTraces } from "./otlp";
import { ROUTES, type Route } from "./routes";

/** `audit`: the database refused decisions are recorded in (server/http/edge-refusals.ts); without it, none are. */
export type StoreHttpOptions = { store: LightningStore; db: Db; allowAnonymous: boolean; audit?: Database };

/**
 * The OTLP/HTTP signal paths and who may send them, declared once (the route matrix test reads it): traces
 * are stored and need a writer's key; the signals the store does not take answer 501 to anyone, before
 * any work, so an exporter configured for them stops retrying.
 */
export const OTLP_SIGNALS: ReadonlyMap<string, { access: Access; stored: boolean }> = new Map([
  ["/v1/traces", { access: "store:write", stored: true }],
  ["/v1/metrics", { access: "public", stored: false }],
  ["/v1/logs", { access: "public", stored: false }],
  ["/v1/development/profiles", { access: "public", stored: false }],
]);

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

/** 503s say when to come back (the Python client and OTLP exporters retry them). */
const withRetryAfter = (r: StoreResponse): StoreResponse => ({ ...r, headers: { ...r.headers, "retry-after": "1" } });

function errorResponse(e: unknown): StoreResponse {
  if (e instanceof HttpError) return json({ detail: e.detail }, e.status);
  if (e instanceof BodyTooLargeError || e instanceof BodyAbortedError || e instanceof BodyStalledError) return detail(e.status, e.message);
  if (e instanceof ServerBusyError) return withRetryAfter(detail(503, e.message));
  if (e instanceof StoreNotFoundError) return detail(404, e.message);
  if (e instanceof StoreForbiddenError) return detail(403, e.message);
  if (e instanceof StoreInputError) return detail(400, e.message);
  console.error("store: unexpected error", e);
  return json({ detail: "Internal server error", error_type: (e as Error)?.name ?? "Error" }, 500);
}

/** An OTLP signal route: refusals answer in the request's encoding (protobuf Status or JSON). */
async function otlpSignal(request: StoreRequest, opts: StoreHttpOptions, path: string, signal: { access: Access; stored: boolean }, seen: Seen): Promise<StoreResponse> {
  // The reference answers 501 to anyone for the signals it does not store; the body is never read.
  if (!signal.stored) return otlpRefusal(request, 501, `${path}: Lightgate stores traces only; send spans to /v1/traces`);
  if (request.method !== "POST") return otlpRefusal(request, 405, "Method Not Allowed: OTLP traces are POSTed");
  try {
    seen.actor = await authorize(request, signal.access, opts.db, opts.allowAnonymous);
    identified(request, seen.actor);
  } catch (e) {
    if (e instanceof HttpError) return otlpRefusal(request, e.status, e.message);
    throw e;
  }
  return handleOtlpTraces(request, opts.store, seen.actor ? viewerOf(seen.actor) : undefined);
}

/** Tells the edge which key the check accepted (its body budget is then charged to that key). */
function identified(request: StoreRequest, actor: Actor | null): void {
  if (actor && actor !== ANONYMOUS_STORE_ACTOR) request.identified?.(actor.id);
}

/** The store API over StoreRequest/StoreResponse (the node:http fast path serves this directly). */
export function createStoreHandler(opts: StoreHttpOptions): StoreHandler {
  return async function handle(request: StoreRequest): Promise<StoreResponse> {
    const seen: Seen = { route: null, actor: null };
    const response = await serve(request, opts, seen);
    // Refusals that are decisions (server/http/edge-refusals.ts) are recorded before the answer leaves.
    if (opts.audit && response.status >= 400 && response.status < 500) {
      const message = typeof response.body === "string" ? response.body.slice(0, 500) : "";
      await recordEdgeRefusal(opts.audit, request, seen.actor, { route: seen.route, status: response.status, reason: STATUS_REASONS[response.status] ?? String(response.status), message });
    }
    return response;
  };
}

/** What `serve` learned before it answered: the route (as declared) and the caller. */
type Seen = { route: string | null; actor: Actor | null };
const STATUS_REASONS: Record<number, string> = { 400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed", 409: "conflict", 413: "too_large" };

async function serve(request: StoreRequest, opts: StoreHttpOptions, seen: Seen): Promise<StoreResponse> {
  try {
    const url = request.url;
    const path = url.pathname.endsWith("/") ? url.pathname.replace(/\/+$/, "") : url.pathname;
    const signal = OTLP_SIGNALS.get(path);
    if (signal) {
      seen.route = `otlp ${path}`;
      return await otlpSignal(request, opts, path, signal, seen);
    }
    if (!path.startsWith("/v1/agl/")) return detail(404, "Not Found");
    const segments = decodePathSegments(path.slice("/v1/agl".length));
    if (segments === null) return detail(400, BAD_PERCENT_ENCODING);
    if (segments.some((s) => s.length === 0 || s.length > 512 || s.includes("\u0000"))) return detail(404, "Not Found");
    const found = match(segments, request.method);
    if (found === null) return detail(404, "Not Found");
    if (found === "method") {
      seen.route = "store /v1/agl";
      return detail(405, "Method Not Allowed");
    }
    seen.route = `store ${found.route.method} ${found.route.path}`;
    seen.actor = await authorize(request, found.route.access, opts.db, opts.allowAnonymous);
    identified(request, seen.actor);
    const actor = seen.actor;
    return await found.route.handle({ store: opts.store, params: found.params, url, viewer: actor ? viewerOf(actor) : undefined, actor, body: async () => readJson(await request.body()) });
  } catch (e) {
    return errorResponse(e);
  }
}

/** The same API as a web-standard handler (Next.js route handlers under app/v1, tests). */
export function createStoreHttpHandler(opts: StoreHttpOptions): (request: Request) => Promise<Response> {
  return toWebHandler(createStoreHandler(opts));
}
