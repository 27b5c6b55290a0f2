// Store REST (/v1/agl/*): every route of the store's own route table, with hostile path segments (real ids,
// magic names, bad percent-encoding), query strings (negative and huge limits, magic sort keys, repeated
// keys) and bodies (each route's valid body with one change anywhere in it, or junk), as every identity.
import fc from "fast-check";
import { ROUTES, type Route } from "@/server/store/http/routes";
import { bodyOf, contentType, deepMutated, edgeString, hostileJson, protoName, queryOf, rawNumber, segment, badPercent, jsonText, encode, oversizeJson, OVERSIZE } from "../atoms";
import { as, identityFor, type SuiteContext } from "../context";
import type { Identity } from "../credentials";
import type { HostileCase } from "../http";
import type { FamilyCases } from "../runner";

function validBodies(ctx: SuiteContext): Record<string, unknown> {
  const f = ctx.fixtures;
  const llm = { resource_type: "llm", endpoint: "http://llm.local/v1", model: "m", sampling_parameters: { temperature: 0.5 } };
  return {
    "queues/rollouts/enqueue": { rollouts: [{ input: { task: "t" }, mode: "train", resources_id: f.resourcesId, config: { max_attempts: 2, retry_condition: ["failed"] }, metadata: { k: "v" } }] },
    "queues/rollouts/dequeue": { limit: 1, worker_id: f.workerId },
    rollouts: { input: { task: "t" }, mode: "val", worker_id: f.workerId, metadata: { k: 1 } },
    "rollouts/:rid": { metadata: { note: "x" }, config: { timeout_seconds: 60 } },
    "rollouts/:rid/attempts": { worker_id: f.workerId },
    "rollouts/:rid/attempts/:aid": { status: "running", worker_id: f.workerId, last_heartbeat_time: Date.now() / 1000, metadata: { k: "v" } },
    "rollouts/search": { status_in: ["running"], limit: 5, offset: 0, sort_by: "start_time", sort_order: "desc", filter_logic: "and" },
    "rollouts/:rid/attempts/search": { limit: 5, sort_by: "sequence_id", sort_order: "asc" },
    "workers/:wid": { heartbeat_stats: { cpu_percent: 10 } },
    "workers/search": { status_in: ["idle"], worker_id_contains: "w", limit: 5 },
    resources: { main: llm },
    "resources/:id": { main: llm, prompt: { resource_type: "prompt_template", template: "Hi {x}", engine: "f-string" } },
    spans: { rollout_id: f.rolloutId, attempt_id: f.attemptId, sequence_id: 7, trace_id: "0".repeat(32), span_id: "00000000000000b2", parent_id: f.spanId, name: "llm.call", attributes: { model: "m", nested: { a: [1, 2] } }, start_time: 1, end_time: 2 },
    "spans/search": { rollout_id: f.rolloutId, attempt_id: f.attemptId, name_contains: "llm", limit: 10, sort_by: "sequence_id" },
    "spans/next": { rollout_id: f.rolloutId, attempt_id: f.attemptId },
  };
}

const QUERY_KEYS = ["limit", "offset", "sort_by", "sort_order", "status_in", "rollout_id_in", "mode_in", "filter_logic", "rollout_id", "attempt_id", "name_contains", "worker_id_contains", "resources_id", "resources_id_contains"];

function queryString(ctx: SuiteContext): fc.Arbitrary<string> {
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, protoName, fc.constantFrom("__proto__[limit]", "limit[]", "sort_by.__proto__", "", "%E0%A4%A"));
  const value = fc.oneof(
    fc.constantFrom("-5", "-1", "0", "1e999", "NaN", "1.5", "99999999999999999999", "0x10", "%201", "", "asc", "desc", "toString", "__proto__", "constructor", "running", "start_time", ctx.fixtures.rolloutId, ctx.fixtures.attemptId),
    edgeString.map((s) => encode(s.slice(0, 500))),
    badPercent,
  );
  return fc.array(fc.tuple(key, value), { maxLength: 5 }).map(queryOf);
}

/** waits/rollouts holds a request until its rollouts finish or the timeout passes: keep every timeout tiny. */
function waitBody(ctx: SuiteContext): fc.Arbitrary<unknown> {
  const ids = fc.oneof(fc.constant([ctx.fixtures.finishedRolloutId]), fc.array(edgeString, { maxLength: 3 }), hostileJson);
  const timeout = fc.oneof(fc.constantFrom(0, 0.01, -1, "0", true), rawNumber.filter((r) => !["1e-999", "-0", "00"].includes(r.text)));
  return fc.tuple(ids, timeout, fc.option(fc.tuple(protoName, hostileJson))).map(([rollout_ids, t, extra]) => ({ rollout_ids, timeout: t, ...(extra ? Object.fromEntries([extra]) : {}) }));
}

function whoFor(ctx: SuiteContext, route: Route): fc.Arbitrary<Identity> {
  const s = ctx.creds.services;
  const usual = route.access === "public" ? ctx.creds.anonymous : route.access === "read" ? s.runner : route.access === "store:enqueue" ? s.algorithm : s.runner;
  return identityFor(ctx, usual);
}

function routeCase(ctx: SuiteContext, route: Route): fc.Arbitrary<HostileCase> {
  const f = ctx.fixtures;
  const real: Record<string, string[]> = { ":rid": [f.rolloutId, f.finishedRolloutId], ":aid": [f.attemptId], ":wid": [f.workerId], ":id": [f.resourcesId] };
  const parts = route.path.split("/");
  const path = fc.tuple(...parts.map((p) => (p.startsWith(":") ? segment(real[p] ?? []) : fc.oneof({ weight: 12, arbitrary: fc.constant(p) }, protoName, badPercent)))).map((segs) => `/v1/agl/${segs.join("/")}`);
  const bodies = validBodies(ctx);
  const body: fc.Arbitrary<Buffer | undefined> =
    route.method === "GET"
      ? fc.constant(undefined)
      : route.path === "waits/rollouts"
        ? waitBody(ctx).map((v) => Buffer.from(jsonText(v)))
        : bodyOf(fc.oneof({ weight: 4, arbitrary: deepMutated(bodies[route.path] ?? {}) }, hostileJson));
  const ending = fc.oneof({ weight: 10, arbitrary: fc.constant("") }, fc.constantFrom("/", "//", "/extra", "/%2e%2e", "/__proto__"));
  const method = fc.oneof({ weight: 12, arbitrary: fc.constant(route.method) }, fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"));
  const type = fc.oneof({ weight: 8, arbitrary: fc.constant("application/json") }, contentType);
  const query = route.method === "GET" ? queryString(ctx) : fc.oneof({ weight: 8, arbitrary: fc.constant("") }, queryString(ctx));
  return fc.record({ path, ending, query, method, body, type, who: whoFor(ctx, route) }).map((r) => {
    const waits = route.path === "waits/rollouts";
    // A changed method or path must not turn a tiny-timeout wait into another route's 25-second wait.
    const m = waits ? "POST" : r.method;
    const c = as(r.who, { route: `${route.method} /v1/agl/${route.path}`, method: m, path: r.path + (waits ? "" : r.ending) + r.query, headers: m === "GET" ? {} : { "content-type": r.type }, body: m === "GET" ? undefined : (r.body ?? Buffer.alloc(0)) });
    // A refused write under a resources id is a decision about a release lineage: recorded in the audit log.
    if (route.method === "POST" && route.path === "resources/:id") c.refusalRecordedIn = [/^AuditEvent$/];
    const nonsense = nonsenseNumber(route, c);
    return nonsense ? { ...c, mustRefuse: `a nonsense ${nonsense.field} (${nonsense.value})`, mustName: nonsense.field } : c;
  });
}

/** The routes that take a page limit (and, but for dequeue, an offset). */
const PAGED = new Set(["POST queues/rollouts/dequeue", "GET rollouts", "POST rollouts/search", "GET rollouts/:rid/attempts", "POST rollouts/:rid/attempts/search", "GET workers", "POST workers/search", "GET spans", "POST spans/search", "GET resources"]);
const paged = (r: Route) => PAGED.has(`${r.method} ${r.path}`);

/** Each paged route once with limit -5 and once with offset -3, the rest of the request valid. */
function nonsenseCases(ctx: SuiteContext): HostileCase[] {
  const bodies = validBodies(ctx);
  const f = ctx.fixtures;
  return ROUTES.filter(paged).flatMap((r) =>
    [["limit", -5], ...(r.path.startsWith("queues") ? [] : [["offset", -3]])].map(([field, value]) => {
      const path = `/v1/agl/${r.path.replace(":rid", f.rolloutId)}`;
      const who = ctx.creds.services.runner;
      const base: { path: string; headers: Record<string, string>; body?: Buffer } = r.method === "GET" ? { path: `${path}?${field}=${value}${r.path === "spans" ? `&rollout_id=${f.rolloutId}` : ""}`, headers: {} } : { path, headers: { "content-type": "application/json" }, body: Buffer.from(JSON.stringify({ ...(bodies[r.path] as object), [field as string]: value })) };
      return as(who, { route: `${r.method} /v1/agl/${r.path} (${field} ${value})`, method: r.method, ...base, mustRefuse: `a nonsense ${field} (${value})`, mustName: field as string });
    }),
  );
}

/**
 * A page limit below -1 (−1 means "all"), a dequeue limit below 0 or a negative offset, in a request that
 * otherwise goes to its route as is: the store must refuse it, naming the field.
 */
function nonsenseNumber(route: Route, c: HostileCase): { field: string; value: number } | null {
  const [p, q] = c.path.split("?");
  if (!paged(route)) return null;
  const exact = new RegExp(`^/v1/agl/${route.path.replace(/:[a-z]+/g, "[^/]+")}$`);
  if (c.method !== route.method || !exact.test(p ?? "") || (c.who !== "key:runner" && c.who !== "key:algorithm")) return null;
  let input: Record<string, unknown> = {};
  if (c.method === "GET") input = Object.fromEntries(new URLSearchParams(q ?? "").entries());
  else if (c.headers["content-type"] === "application/json") {
    try {
      const parsed: unknown = JSON.parse(c.body?.toString("utf8") ?? "");
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) input = parsed as Record<string, unknown>;
    } catch {
      return null;
    }
  }
  const int = (v: unknown) => (typeof v === "number" && Number.isInteger(v) ? v : typeof v === "string" && /^-?\d{1,15}$/.test(v) ? Number(v) : null);
  const limit = int(input.limit);
  const offset = int(input.offset);
  const dequeue = route.path === "queues/rollouts/dequeue";
  if (limit !== null && limit < (dequeue ? 0 : -1)) return { field: "limit", value: limit };
  if (offset !== null && offset < 0) return { field: "offset", value: offset };
  return null;
}

export function storeCases(ctx: SuiteContext): FamilyCases {
  const perRoute = ROUTES.map((r) => routeCase(ctx, r));
  // A body cut off mid-upload: the store must write none of it.
  const dropped = fc.tuple(fc.constantFrom("queues/rollouts/enqueue", "spans", "resources"), fc.double({ min: 0.1, max: 0.9, noNaN: true })).map(([p, at]) => {
    const body = Buffer.from(JSON.stringify(validBodies(ctx)[p]));
    return as(ctx.creds.services.algorithm, { route: `POST /v1/agl/${p} (dropped upload)`, method: "POST", path: `/v1/agl/${p}`, headers: { "content-type": "application/json" }, body, dropAfterBytes: Math.floor(body.length * at) });
  });
  const unknown = fc.tuple(fc.array(segment([]), { minLength: 1, maxLength: 4 }), fc.constantFrom("GET", "POST")).map(([segs, method]) =>
    as(ctx.creds.services.runner, { route: `${method} /v1/agl/<unknown>`, method, path: `/v1/agl/${segs.join("/")}`, headers: { "content-type": "application/json" }, body: method === "POST" ? Buffer.from("{}") : undefined }),
  );
  const oversize = as(ctx.creds.services.algorithm, { route: "POST /v1/agl/spans (80 MiB)", method: "POST", path: "/v1/agl/spans", headers: { "content-type": "application/json" }, body: oversizeJson(), mustRefuse: OVERSIZE, refuseWith: 413 });
  return { fixed: [oversize, ...nonsenseCases(ctx)], random: fc.oneof({ weight: 20, arbitrary: fc.oneof(...perRoute) }, { weight: 1, arbitrary: dropped }, { weight: 1, arbitrary: unknown }) };
}
