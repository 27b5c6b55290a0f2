// The HTTP route matrix, generated from where each route family declares who may call it:
//   /v1/agl/*   server/store/http/routes.ts `ROUTES[].access`  (API keys only: "read" = any valid key)
//   OTLP        server/store/http/handler.ts `OTLP_SIGNALS`    (same rule as the store's routes)
//   pointers, receipts  server/receipts/http.ts `GATE_ROUTE_ACCESS` (any valid key, or a session with a scope;
//               a pointer's resources: a key holding store:write for the agent)
//   /v1/gate/*  server/gate-api/routes.ts `GATE_API_ROUTES[].access` (a scope for every agent, the body's agent
//               or the record's; "read" = any valid key or dashboard:read)
//   /api/auth/* server/auth/auth-paths.ts `SERVED_AUTH_PATHS` (every other path answers 404)
//   /api/health public by design (server/system/health.ts)
// Verdicts for scopes always come from lib/auth/scopes.ts `grantsAllow`.
import { grantsAllow, type RoleGrant } from "@/lib/auth/scopes";
import { SERVED_AUTH_PATHS, type AuthPathAccess } from "@/server/auth/auth-paths";
import type { GateApiAccess } from "@/server/gate-api/access";
import { GATE_API_ROUTES } from "@/server/gate-api/routes";
import { GATE_ROUTE_ACCESS, type GateRouteAccess } from "@/server/receipts/http";
import type { Access } from "@/server/store/http/auth";
import { OTLP_SIGNALS } from "@/server/store/http/handler";
import { ROUTES, type Route } from "@/server/store/http/routes";
import { AGENT_X, AGENT_Y, globalIdentities, perAgentIdentities, type Identity } from "./permission-matrix";

/** An HTTP caller: the matrix's identities, plus one presenting a key that is no key. */
export type Caller = Identity | { label: "invalid API key"; kind: "invalid-key"; grants: RoleGrant[] };
export const INVALID_KEY: Caller = { label: "invalid API key", kind: "invalid-key", grants: [] };

export function routeCallers(): Caller[] {
  return [...globalIdentities(), INVALID_KEY, ...perAgentIdentities()];
}

/** "not-served": an auth path Lightgate switched off (404, nothing written). */
export type RouteVerdict = "allowed" | "unauthorized" | "forbidden" | "not-served";

export type RouteCell = {
  family: "store" | "otlp" | "gate" | "gate-api" | "auth" | "health";
  method: string;
  path: string;
  /** JSON text sent as the body (a well-behaved client's minimal request), if any. */
  body?: string;
  caller: Caller;
  expected: RouteVerdict;
};

const PROBE = "matrix-probe";

/** The store's rule (routes and OTLP): API keys only, a scope checked for every agent. */
function storeVerdict(access: Access, caller: Caller): RouteVerdict {
  if (access === "public") return "allowed";
  if (caller.kind !== "service") return "unauthorized"; // people's cookies and bad keys are not store credentials
  return access === "read" || grantsAllow(caller.grants, access, null) ? "allowed" : "forbidden";
}

function gateVerdict(access: GateRouteAccess, caller: Caller, agent: string | null): RouteVerdict {
  if (access === "public") return "allowed";
  if (caller.kind === "nobody" || caller.kind === "invalid-key") return "unauthorized";
  if (caller.kind === "service") return access.apiKey === "any" || grantsAllow(caller.grants, access.apiKey, agent) ? "allowed" : "forbidden";
  if (access.session === null) return "unauthorized"; // API keys only: a person's cookie is no credential here
  return grantsAllow(caller.grants, access.session, agent) ? "allowed" : "forbidden";
}

function authVerdict(access: AuthPathAccess | undefined, caller: Caller): RouteVerdict {
  if (access === undefined) return "not-served";
  if (access === "public") return "allowed";
  return caller.kind === "user" ? "allowed" : "unauthorized";
}

/** The URL the matrix sends for a store route (its parameters filled in). */
export const storeRoutePath = (route: Route) => `/v1/agl/${route.path.replace(/:[a-z]+/g, PROBE)}`;

export function storeCells(callers: Caller[]): RouteCell[] {
  return ROUTES.flatMap((route) => {
    const path = storeRoutePath(route);
    const body = route.method === "POST" ? "{}" : undefined;
    return callers.map((caller): RouteCell => ({ family: "store", method: route.method, path, body, caller, expected: storeVerdict(route.access, caller) }));
  });
}

export function otlpCells(callers: Caller[]): RouteCell[] {
  // An empty OTLP/JSON export: valid, and stores nothing.
  return [...OTLP_SIGNALS].flatMap(([path, signal]) => callers.map((caller): RouteCell => ({ family: "otlp", method: "POST", path, body: "{}", caller, expected: storeVerdict(signal.access, caller) })));
}

export const POINTER_NAMES = ["approved-default", "latest-candidate", "canary", "history"] as const;

export function gateCells(callers: Caller[]): RouteCell[] {
  const pointers = [AGENT_X, AGENT_Y].flatMap((agent) => POINTER_NAMES.map((name) => ({ path: `/v1/pointers/${agent}/${name}`, access: GATE_ROUTE_ACCESS.pointer, agent })));
  const bytes = [AGENT_X, AGENT_Y].flatMap((agent) => POINTER_NAMES.filter((n) => n !== "history").map((name) => ({ path: `/v1/pointers/${agent}/${name}/resources`, access: GATE_ROUTE_ACCESS.pointerResources, agent })));
  const routes = [...pointers, ...bytes, { path: `/v1/receipts/${PROBE}`, access: GATE_ROUTE_ACCESS.receipt, agent: null }, { path: "/v1/receipts/public-key", access: GATE_ROUTE_ACCESS.publicKey, agent: null }];
  return routes.flatMap((r) => callers.map((caller): RouteCell => ({ family: "gate", method: "GET", path: r.path, caller, expected: gateVerdict(r.access, caller, r.agent) })));
}

/** The gate API's rule: every caller identified first; then the route's scope, for whichever agent it names. */
function gateApiVerdict(access: GateApiAccess, caller: Caller, agent: string | null): RouteVerdict {
  if (caller.kind === "nobody" || caller.kind === "invalid-key") return "unauthorized";
  if (access.scope === "read") return caller.kind === "service" || grantsAllow(caller.grants, "dashboard:read", null) ? "allowed" : "forbidden";
  const scope = access.scope;
  const holds = (a: string | null) => grantsAllow(caller.grants, scope, a);
  if (access.agent === "none") return holds(null) ? "allowed" : "forbidden";
  if (access.agent === "body") return holds(agent) ? "allowed" : "forbidden";
  // "record": a caller who holds the scope for some agent gets past the door (an unknown record is then a 404).
  return holds(null) || caller.grants.some((g) => g.agent !== null && holds(g.agent)) ? "allowed" : "forbidden";
}

/** The URL the matrix sends for a gate API route (its named segments filled in). */
export const gateApiRoutePath = (path: string) => path.replace(/:[a-z_]+/g, PROBE);

export function gateApiCells(callers: Caller[]): RouteCell[] {
  return GATE_API_ROUTES.flatMap((route) => {
    const path = gateApiRoutePath(route.path);
    // A route that takes its agent from the body is sent about the agent per-agent roles hold, and another.
    const sends: [string | undefined, string | null][] =
      route.access.agent === "body" ? [AGENT_X, AGENT_Y].map((a) => [JSON.stringify({ agent: a }), a]) : [[route.method === "POST" ? "{}" : undefined, null]];
    return sends.flatMap(([body, agent]) => callers.map((caller): RouteCell => ({ family: "gate-api", method: route.method, path, body, caller, expected: gateApiVerdict(route.access, caller, agent) })));
  });
}

export function healthCells(callers: Caller[]): RouteCell[] {
  return callers.map((caller) => ({ family: "health", method: "GET", path: "/api/health", caller, expected: "allowed" }));
}

/** Every better-auth endpoint (path and methods) as the built instance lists it. */
export type AuthEndpoint = { path: string; methods: string[] };

export function authEndpoints(api: Record<string, unknown>): AuthEndpoint[] {
  return Object.values(api)
    .map((e) => e as { path?: string; options?: { method?: string | string[] } })
    .filter((e) => typeof e.path === "string")
    .map((e) => ({ path: e.path!, methods: [e.options?.method ?? "GET"].flat().filter((m) => m !== "*") }));
}

/**
 * Every better-auth endpoint × method as nobody and as a signed-in person. A switched-off one is sent once as
 * better-auth would route it (alternately by nobody and by the person) — once, because better-auth's limiter,
 * shared by every instance in the process, allows some paths only 3 requests per window whatever the
 * database — and then in spellings a router might take for the same path (upper case, a doubled slash).
 * Sign-in and sign-out are left to the test, which sends them with real credentials.
 */
export function authCells(endpoints: AuthEndpoint[], nobody: Caller, person: Caller, body: Record<string, unknown>): RouteCell[] {
  return endpoints.flatMap(({ path, methods }, i) => {
    if (path === "/sign-in/email" || path === "/sign-out") return [];
    const concrete = path.replace(/:[A-Za-z]+/g, PROBE);
    const access = SERVED_AUTH_PATHS.get(path);
    const [first, second] = i % 2 === 0 ? [nobody, person] : [person, nobody];
    const sends: [Caller, string][] =
      access === undefined
        ? [[first, concrete], [second, concrete.toUpperCase()], [first, `/${concrete}`]]
        : [[nobody, concrete], [person, concrete]];
    return sends.flatMap(([caller, spelling]) =>
      methods.map((method): RouteCell => {
        const query = method === "GET" ? `?${new URLSearchParams({ callbackURL: "/", token: PROBE })}` : "";
        return { family: "auth", method, path: `/api/auth${spelling}${query}`, body: method === "GET" ? undefined : JSON.stringify(body), caller, expected: authVerdict(access, caller) };
      }),
    );
  });
}
