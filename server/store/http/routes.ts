// The /v1/agl routes (agentlightning store/client_server.py §3.2), each: access level, then
// parse → one store call → the reference's response shape. Missing objects on GET answer `null` with 200;
// unknown ids on writes answer 404 `{"detail"}` (the reference's 500) so the real client fails fast.
import type { LightningStore, Rollout, AttemptedRollout, Span, EnqueueRolloutRequest, StoreViewer } from "../index";
import { wireAttempt } from "../rows";
import type { Access } from "./auth";
import type { StoreResponse } from "./exchange";
import { commaList, HttpError, json, jsonText, objectBody, parseWith, queryObject } from "./io";
import type { z } from "zod";
import * as s from "./schemas";
import type { Actor } from "@/server/auth/actor";
import { resourcesByIdRoutes } from "./resources-routes";

/** `actor`: who the key check identified (null on public routes); `viewer`: what it may see (scope.ts) — every
 * rollout, attempt and span read and write is narrowed to it. */
export type RouteContext = { store: LightningStore; params: string[]; url: URL; viewer?: StoreViewer; body: () => unknown; actor: Actor | null };
export type Route = { method: "GET" | "POST"; path: string; access: Access; handle(ctx: RouteContext): Promise<StoreResponse> };

const nullIfMissing = <T>(v: T | null) => json(v ?? null);

// Resources carry the credentials runners call models with (api_key …), unmasked: runners and algorithms —
// the keys holding store:write — need the real values; a release bot's key (dashboard:read, approvals) has
// no use for them and is refused with 403 (it reads resources masked on the dashboard, and digests from
// pointers and receipts). Refused rather than masked, so no client mistakes a masked body for the stored one.
const RESOURCES_READ: Access = "store:write";

/** For POST …/search bodies and GET query strings alike. */
async function queryInput(ctx: RouteContext, method: "GET" | "POST", optionalBody = false): Promise<Record<string, unknown>> {
  if (method === "GET") return queryObject(ctx.url);
  return objectBody(await ctx.body(), optionalBody) ?? {};
}

/** A key present with `null` is refused with 400 for fields the store cannot clear (reference behaviour). */
function rejectNulls(body: Record<string, unknown>, keys: string[]) {
  for (const k of keys) if (k in body && body[k] === null) throw new HttpError(400, `${k} is invalid; it cannot be a null value.`);
}

function pick<T extends Record<string, unknown>>(parsed: T, body: Record<string, unknown>): Partial<T> {
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => k in body)) as Partial<T>;
}

/** A paginated query served twice, as the reference does: GET with a query string and POST …/search with a body. */
function queryRoutes<T>(path: string, schema: z.ZodType<T>, run: (ctx: RouteContext, q: T) => Promise<unknown>): Route[] {
  return (["GET", "POST"] as const).map((method) => ({
    method,
    path: method === "GET" ? path : `${path}/search`,
    access: "read" as const,
    async handle(ctx: RouteContext) {
      const q = parseWith(schema, await queryInput(ctx, method), method === "GET" ? "query" : "body");
      return json(await run(ctx, q));
    },
  }));
}

const rolloutsQuery = queryRoutes("rollouts", s.rolloutQuery, (ctx, q) => ctx.store.queryRollouts(q, ctx.viewer));
const attemptsQuery = queryRoutes("rollouts/:rid/attempts", s.attemptQuery, async (ctx, q) => {
  const page = await ctx.store.queryAttempts(ctx.params[0]!, q, ctx.viewer);
  return { ...page, items: page.items.map(wireAttempt) };
});
const workersQuery = queryRoutes("workers", s.workerQuery, (ctx, q) => ctx.store.queryWorkers(q));

const SPAN_CHUNK = 2_000;

/** Spans are served as stored text; results larger than one chunk stream, so memory stays bounded. */
const spansQuery = (method: "GET" | "POST"): Route => ({
  method,
  path: method === "GET" ? "spans" : "spans/search",
  access: "read",
  async handle(ctx) {
    const q = parseWith(s.spanQuery, await queryInput(ctx, method), method === "GET" ? "query" : "body");
    const limit = q.limit ?? -1;
    const offset = q.offset ?? 0;
    const first = await ctx.store.querySpansText({ ...q, limit: limit === -1 ? SPAN_CHUNK : Math.min(limit, SPAN_CHUNK) }, ctx.viewer);
    const head = `{"items":[`;
    const tail = (total: number) => `],"limit":${limit},"offset":${offset},"total":${total}}`;
    if ((limit !== -1 && limit <= SPAN_CHUNK) || first.items.length < SPAN_CHUNK) return jsonText([head, commaList(first.items), tail(first.total)]);
    const rest = ctx.store.streamSpansText({ ...q, offset: offset + SPAN_CHUNK, limit: limit === -1 ? -1 : limit - SPAN_CHUNK }, SPAN_CHUNK, ctx.viewer);
    async function* chunks() {
      yield head;
      yield first.items.join(",");
      for await (const texts of rest) {
        yield ",";
        yield texts.join(",");
      }
      yield tail(first.total);
    }
    return jsonText(chunks());
  },
});

export const ROUTES: Route[] = [
  { method: "GET", path: "health", access: "public", handle: async () => json({ status: "ok" }) },
  { method: "GET", path: "statistics", access: "read", handle: async (ctx) => json(await ctx.store.statistics(ctx.viewer)) },
  {
    method: "POST",
    path: "queues/rollouts/enqueue",
    access: "store:enqueue",
    async handle(ctx) {
      const body = parseWith(s.enqueueBody, objectBody(await ctx.body(), false), "body");
      return json(await ctx.store.enqueueRollouts(body.rollouts as EnqueueRolloutRequest[], ctx.viewer), 201);
    },
  },
  {
    method: "POST",
    path: "queues/rollouts/dequeue",
    access: "store:write",
    async handle(ctx) {
      const body = parseWith(s.dequeueBody, objectBody(await ctx.body(), true) ?? {}, "body");
      return json(await ctx.store.dequeueRollouts({ limit: body.limit ?? 1, worker_id: body.worker_id ?? null, viewer: ctx.viewer }));
    },
  },
  {
    method: "POST",
    path: "rollouts",
    access: "store:write",
    async handle(ctx) {
      const body = parseWith(s.startRolloutBody, objectBody(await ctx.body(), false), "body");
      return json(await ctx.store.startRollout(body as EnqueueRolloutRequest & { worker_id?: string | null }, ctx.viewer), 201);
    },
  },
  ...rolloutsQuery,
  { method: "GET", path: "rollouts/:rid", access: "read", handle: async (ctx) => nullIfMissing<Rollout | AttemptedRollout>(await ctx.store.getRollout(ctx.params[0]!, ctx.viewer)) },
  {
    method: "POST",
    path: "rollouts/:rid",
    access: "store:write",
    async handle(ctx) {
      const raw = objectBody(await ctx.body(), false)!;
      rejectNulls(raw, ["status", "config"]);
      const body = parseWith(s.updateRolloutBody, raw, "body");
      return json(await ctx.store.updateRollout(ctx.params[0]!, pick(body, raw) as Parameters<LightningStore["updateRollout"]>[1], ctx.viewer));
    },
  },
  {
    method: "POST",
    path: "rollouts/:rid/attempts",
    access: "store:write",
    async handle(ctx) {
      const body = parseWith(s.startAttemptBody, objectBody(await ctx.body(), true) ?? {}, "body");
      return json(await ctx.store.startAttempt(ctx.params[0]!, body.worker_id ?? null, ctx.viewer), 201);
    },
  },
  ...attemptsQuery,
  {
    method: "GET",
    path: "rollouts/:rid/attempts/latest",
    access: "read",
    handle: async (ctx) => {
      const a = await ctx.store.getLatestAttempt(ctx.params[0]!, ctx.viewer);
      return json(a ? wireAttempt(a) : null);
    },
  },
  {
    method: "POST",
    path: "rollouts/:rid/attempts/:aid",
    access: "store:write",
    async handle(ctx) {
      const raw = objectBody(await ctx.body(), false)!;
      rejectNulls(raw, ["status", "worker_id", "last_heartbeat_time", "metadata"]);
      const body = parseWith(s.updateAttemptBody, raw, "body");
      return json(await ctx.store.updateAttempt(ctx.params[0]!, ctx.params[1]!, pick(body, raw) as Parameters<LightningStore["updateAttempt"]>[2], ctx.viewer));
    },
  },
  ...workersQuery,
  { method: "GET", path: "workers/:wid", access: "read", handle: async (ctx) => nullIfMissing(await ctx.store.getWorker(ctx.params[0]!)) },
  {
    method: "POST",
    path: "workers/:wid",
    access: "store:write",
    async handle(ctx) {
      const raw = objectBody(await ctx.body(), true) ?? {};
      rejectNulls(raw, ["heartbeat_stats"]);
      const body = parseWith(s.updateWorkerBody, raw, "body");
      return json(await ctx.store.updateWorker(ctx.params[0]!, (body.heartbeat_stats ?? undefined) as never));
    },
  },
  {
    method: "GET",
    path: "resources",
    access: RESOURCES_READ,
    handle: async (ctx) => json(await ctx.store.queryResources(parseWith(s.resourcesQuery, queryObject(ctx.url), "query"))),
  },
  {
    method: "POST",
    path: "resources",
    access: "store:enqueue",
    async handle(ctx) {
      const res = parseWith(s.namedResources, objectBody(await ctx.body(), false), "body");
      return json(await ctx.store.addResources(res as never), 201);
    },
  },
  { method: "GET", path: "resources/latest", access: RESOURCES_READ, handle: async (ctx) => nullIfMissing(await ctx.store.getLatestResources()) },
  // By exact version or digest too, and writes judged against the id's release lineage.
  ...resourcesByIdRoutes(RESOURCES_READ),
  {
    method: "POST",
    path: "spans",
    access: "store:write",
    async handle(ctx) {
      const span = parseWith(s.spanBody, objectBody(await ctx.body(), false), "body") as unknown as Span;
      const added = await ctx.store.addSpan(span, ctx.viewer);
      return json(added, 201);
    },
  },
  spansQuery("GET"),
  spansQuery("POST"),
  {
    method: "POST",
    path: "spans/next",
    access: "store:write",
    async handle(ctx) {
      const body = parseWith(s.nextSequenceBody, objectBody(await ctx.body(), false), "body");
      const [sequence_id] = await ctx.store.nextSpanSequenceIds([body.rollout_id], ctx.viewer);
      return json({ sequence_id });
    },
  },
  {
    method: "POST",
    path: "waits/rollouts",
    access: "read",
    async handle(ctx) {
      const body = parseWith(s.waitBody, objectBody(await ctx.body(), false), "body");
      return json(await ctx.store.waitForRollouts(body.rollout_ids, body.timeout ?? null, ctx.viewer));
    },
  },
];
