// Every HTTP API route answers every method in JSON. Next.js alone answers a method a route module does not
// export with an empty 405, and a path no route serves with its HTML 404 page: neither names what is
// wrong. Route modules under app/api and app/v1 export all of API_METHODS through `apiRoute`, and the
// catch-all routes answer unknown paths with `unknownEndpoint`. The refusals apiRoute answers itself are
// recorded (server/http/edge-refusals.ts) in the process-wide database.
import { getDatabase, type Database } from "@/server/db/client";
import { presentedCredential } from "@/server/auth/refusal-caller";
import { isRecordedRefusal, recordEdgeRefusal } from "./edge-refusals";
import { NUL_REFUSAL, nulInUrl } from "./nul";

export const API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ApiMethod = (typeof API_METHODS)[number];
export type RouteHandler<C> = (request: Request, ctx: C) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });

/**
 * The route's handlers for every method: the ones it serves, and a JSON 405 naming them for the rest.
 * A URL with a NUL (%00) in its path or query string is refused before any handler runs.
 */
export function apiRoute<C>(served: Partial<Record<ApiMethod, RouteHandler<C>>>, opts: { database?: () => Promise<Database> } = {}): Record<ApiMethod, RouteHandler<C>> {
  const allowed = API_METHODS.filter((m) => served[m]);
  const database = opts.database ?? getDatabase;
  // Refused before the route's own handler (which records its own refusals): a wrong method, a NUL in the URL.
  const refused = async (request: Request, status: number, body: { error: string; field?: string; message: string }, headers: Record<string, string> = {}) => {
    const answer = { route: routeFamily(request), status, reason: body.error, message: body.message };
    // Decided before the database is opened: most refusals here (a GET with a NUL, no credential) are none.
    if (!isRecordedRefusal(request.method, presentedCredential(request.headers) !== "none", answer)) return json(status, body, headers);
    await database().then(
      (db) => recordEdgeRefusal(db, request, null, answer),
      (e: unknown) => console.error(`audit: no database to record a refused ${request.method} ${answer.route}:`, (e as Error)?.message ?? e),
    );
    return json(status, body, headers);
  };
  const refuse: RouteHandler<C> = (request) =>
    refused(request, 405, { error: "method_not_allowed", message: `${request.method} is not allowed on ${new URL(request.url).pathname.slice(0, 200)}: use ${allowed.join(" or ")}` }, { allow: allowed.join(", ") });
  const guarded = (handler: RouteHandler<C>): RouteHandler<C> => (request, ctx) => {
    const where = nulInUrl(new URL(request.url));
    return where ? refused(request, 400, { error: "bad_request", field: where, message: `the URL ${NUL_REFUSAL}: %00 in its path or query string` }) : handler(request, ctx);
  };
  return Object.fromEntries(API_METHODS.map((m) => [m, guarded(served[m] ?? refuse)])) as Record<ApiMethod, RouteHandler<C>>;
}

/** The route file's family (`/v1/pointers`, `/api/auth`): its first two segments, fixed by where it is mounted. */
function routeFamily(request: Request): string {
  return new URL(request.url).pathname.split("/").slice(0, 3).join("/").slice(0, 60);
}

const ENDPOINTS = "/v1/agl/…, /v1/traces, /v1/gate/… (datasets, receipts, gate-runs, verifications), /v1/pointers/<agent>/<approved-default|latest-candidate|canary|history>, /v1/receipts/<candidateId>, /v1/receipts/public-key, /api/trpc/<procedure>, /api/auth/<sign-in/email|sign-out|get-session>, /api/health";

/** A JSON 404 for a path under /api or /v1 that no route serves, listing the ones that exist. */
export function unknownEndpoint(request: Request): Response {
  const path = new URL(request.url).pathname.slice(0, 200);
  return json(404, { error: "not_found", message: `no API endpoint at ${path}; the endpoints are ${ENDPOINTS}` });
}

/** The catch-all routes' handlers: `unknownEndpoint` for every method. */
export function unknownEndpointRoute(): Record<ApiMethod, RouteHandler<unknown>> {
  const handler: RouteHandler<unknown> = (request) => unknownEndpoint(request);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}
