// The gate API over HTTP (`/v1/gate/*`), framework-free: a web Request in, a Response out, for the route
// file (app/v1/gate/[...path]) and the production server's fast path alike. In order: the URL (NUL, percent-
// encoding, a route for the path and the method), the request's form (JSON, not cross-site with a cookie),
// the caller (API key or session), the route's access (routes.ts), then the route's own work. Every refusal
// is `{error, field?, message}`; a failure that is not a refusal is a 500 whose cause stays in the log.
import { actorCan, type Actor } from "@/server/auth/actor";
import { jsonRequestRefusal } from "@/server/auth/cross-site";
import type { Database } from "@/server/db/client";
import { recordEdgeRefusal } from "@/server/http/edge-refusals";
import { NUL_REFUSAL, nulInUrl } from "@/server/http/nul";
import { BAD_PERCENT_ENCODING, decodePathSegments, pathNameProblem } from "@/lib/http/path-segments";
import { answer, GateApiError, refusalAnswer } from "./answer";
import type { GateCall, GateRoute } from "./access";
import { forbidden, holdsAnywhere, identify } from "./caller";
import { readJsonBody } from "./input";
import { GATE_API_ROUTES } from "./routes";

const PATTERNS = GATE_API_ROUTES.map((route) => ({ route, segments: route.path.split("/").slice(1) }));
export const GATE_API_ENDPOINTS = GATE_API_ROUTES.map((r) => `${r.method} ${r.path}`).join(", ");

/** The route for a path and method, with its named segments; or the 404/405 to answer. */
function routeFor(segments: string[], method: string): { route: GateRoute; params: Map<string, string> } {
  const onPath = PATTERNS.filter((p) => p.segments.length === segments.length && p.segments.every((s, i) => s.startsWith(":") || s === segments[i]));
  if (onPath.length === 0) throw new GateApiError(404, "not_found", `no gate API endpoint at /${segments.join("/").slice(0, 200)}; the endpoints are ${GATE_API_ENDPOINTS}`);
  // A literal segment beats a named one (`/verifications/pending` is not a verification id).
  const literal = (p: (typeof onPath)[number]) => p.segments.filter((s) => !s.startsWith(":")).length;
  const served = onPath.filter((p) => p.route.method === (method === "HEAD" ? "GET" : method)).sort((a, b) => literal(b) - literal(a))[0];
  if (!served) {
    const allowed = [...new Set(onPath.map((p) => p.route.method))].join(", ");
    throw new GateApiError(405, "method_not_allowed", `${method.slice(0, 20)} is not allowed on /${segments.join("/").slice(0, 200)}: use ${allowed}`);
  }
  const params = new Map<string, string>();
  for (const [i, s] of served.segments.entries()) {
    if (!s.startsWith(":")) continue;
    const name = s.slice(1);
    const problem = pathNameProblem(segments[i]!, name);
    if (problem) throw new GateApiError(400, "bad_request", problem, name);
    params.set(name, segments[i]!);
  }
  return { route: served.route, params };
}

/** What `serve` learned before it answered: the route and the caller, for the refusal log. */
type Seen = { route: string | null; actor: Actor | null };

async function serve(database: Database, request: Request, seen: Seen): Promise<Response> {
  const url = new URL(request.url);
  const nul = nulInUrl(url);
  if (nul) throw new GateApiError(400, "bad_request", `the URL ${NUL_REFUSAL}: %00 in its path or query string`, nul);
  const segments = decodePathSegments(url.pathname);
  if (segments === null) throw new GateApiError(400, "bad_request", BAD_PERCENT_ENCODING);
  // A wrong method is recorded under the path's pattern (never the raw path: the log's keys stay few).
  const pattern = PATTERNS.find((p) => p.segments.length === segments.length && p.segments.every((s, i) => s.startsWith(":") || s === segments[i]));
  seen.route = pattern ? `gate ${pattern.route.path}` : null;
  const { route, params } = routeFor(segments, request.method);
  seen.route = `gate ${route.method} ${route.path}`;
  const form = jsonRequestRefusal(request, "gate API requests");
  if (form) throw new GateApiError(form.code === "FORBIDDEN" ? 403 : 415, form.code.toLowerCase(), form.message, form.code === "FORBIDDEN" ? undefined : "content-type");
  const actor = await identify(request, database);
  seen.actor = actor;
  const { scope, agent } = route.access;
  const holds = (s: Parameters<typeof holdsAnywhere>[1]) => holdsAnywhere(actor, s);
  if (scope === "read") {
    if (actor.kind === "user" && !actorCan(actor, "dashboard:read", null)) throw forbidden(actor, "dashboard:read", null);
  } else if (agent === "none" ? !actorCan(actor, scope, null) : !holds(scope)) throw forbidden(actor, scope, null);

  let body: Promise<Record<string, unknown>> | undefined;
  const call: GateCall = {
    database,
    actor,
    request,
    params,
    query: url.searchParams,
    body: () => (body ??= readJsonBody(request)),
    optionalBody: () => (body ??= readJsonBody(request, { optional: true })),
    allows: (a) => scope === "read" || actorCan(actor, scope, a),
    authorize(a) {
      if (!call.allows(a)) throw forbidden(actor, scope as Exclude<typeof scope, "read">, a);
    },
    holds,
  };
  if (agent === "body") {
    const named = (await call.body()).agent;
    if (typeof named === "string") call.authorize(named);
  }
  try {
    const served = await route.serve(call);
    return answer(served.status, served.body);
  } catch (e) {
    const refused = refusalAnswer(e, route.fields);
    if (refused) return refused;
    throw e;
  }
}

/**
 * `/v1/gate/*`: every refusal in the API's shape, and nothing but a JSON 500 for a real failure. Refusals
 * that are decisions (server/http/edge-refusals.ts) are recorded before the answer leaves.
 */
export async function serveGateApi(database: Database, request: Request): Promise<Response> {
  const seen: Seen = { route: null, actor: null };
  let response: Response;
  try {
    response = await serve(database, request, seen);
  } catch (e) {
    const refused = refusalAnswer(e);
    if (!refused) {
      console.error(`gate API ${request.method} ${new URL(request.url).pathname.slice(0, 200)}:`, e);
      return answer(500, { error: "internal", message: "internal error: the server could not answer this call (it is logged)" });
    }
    response = refused;
  }
  if (response.status >= 400 && response.status < 500) {
    const body = (await response.clone().json().catch(() => ({}))) as { error?: unknown; message?: unknown };
    const reason = typeof body.error === "string" ? body.error : String(response.status);
    await recordEdgeRefusal(database, request, seen.actor, { route: seen.route, status: response.status, reason, message: typeof body.message === "string" ? body.message : "" });
  }
  return response;
}
