// Who may call each gate API route, in the shape every route declares it (routes.ts `GATE_API_ROUTES[].access`;
// the route matrix test reads the same declarations):
//   scope "read"  any valid API key, or a person's session holding `dashboard:read`
//   a Scope       an API key holding it, or a person holding it — for every agent ("none"), for the agent
//                 the body names ("body"), or for the agent of the record the route acts on ("record";
//                 checked once the record is read, after a first check that the caller holds it for some
//                 agent, so a caller who holds it nowhere is refused before any work).
import type { Scope } from "@/lib/auth/scopes";
import type { Actor } from "@/server/auth/actor";
import type { Database } from "@/server/db/client";

export type GateApiAccess = { scope: Scope | "read"; agent: "none" | "body" | "record" };

/** One call of a route, once its caller was let in. */
export type GateCall = {
  database: Database;
  actor: Actor;
  request: Request;
  /** The path's named segments (`receipt_id`, …), decoded once. */
  params: ReadonlyMap<string, string>;
  query: URLSearchParams;
  /** The JSON body (POST routes), already read when the route's access needed it. */
  body(): Promise<Record<string, unknown>>;
  /** The JSON body of a route whose body is optional: `{}` when none was sent. */
  optionalBody(): Promise<Record<string, unknown>>;
  /** Refuses (403) unless the caller holds the route's scope for `agent`. */
  authorize(agent: string): void;
  /** Whether the caller holds the route's scope for `agent` (lists filter by it). */
  allows(agent: string): boolean;
  /** Whether the caller holds `scope` for some agent. */
  holds(scope: Scope): boolean;
};

export type Served = { status: number; body: unknown };

export type GateRoute = {
  method: "GET" | "POST";
  /** `/v1/gate/receipts/:receipt_id/candidate`: literal segments and `:named` ones. */
  path: string;
  access: GateApiAccess;
  /** Renames domain error fields to the request's spelling. */
  fields?: ReadonlyMap<string, string>;
  serve(call: GateCall): Promise<Served>;
};
