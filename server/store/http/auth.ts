// Who may call the store over HTTP. Writers present an API key (`Authorization: Bearer <key>` or
// `X-API-Key: <key>`); reads need any valid key, except resources (they hold credentials: store:write, so a
// release bot's key is refused); writes need the route's scope (lib/auth/scopes.ts):
// runners `store:write` (rollouts, attempts, spans, workers), algorithms also `store:enqueue` (enqueue,
// resources). With LIGHTGATE_ALLOW_ANONYMOUS_STORE=1 on a loopback-bound server, key-less clients act as
// an anonymous algorithm — never when bound to another address.
// A key bound to agents holds its role for each of them: it passes a route's scope check when it holds the
// scope for some agent, and what it then sees and serves is narrowed per agent by its StoreViewer (scope.ts).
import type { Scope } from "@/lib/auth/scopes";
import { agentsWith, makeActor, type Actor } from "@/server/auth/actor";
import { apiKeyOf, authenticateApiKey } from "@/server/auth/api-keys";
import type { Db } from "@/server/db/client";
import type { StoreViewer } from "../scope";
import type { HeaderReader } from "./exchange";
import { HttpError } from "./io";

/** "public": no key at all (health); "read": any valid key; otherwise the scope a write needs. */
export type Access = "public" | "read" | Scope;

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost", "[::1]"]);

export function anonymousAllowed(env: Record<string, string | undefined>): boolean {
  const on = env.LIGHTGATE_ALLOW_ANONYMOUS_STORE === "1" || env.LIGHTGATE_ALLOW_ANONYMOUS_STORE === "true";
  return on && LOOPBACK.has((env.HOSTNAME ?? "127.0.0.1").trim().toLowerCase());
}

export const ANONYMOUS_STORE_ACTOR: Actor = makeActor("service", "anonymous-store", "Anonymous store client (loopback)", ["algorithm"]);

export function tokenOf(request: { headers: HeaderReader }): string | null {
  return apiKeyOf(request.headers);
}

export async function authorize(request: { headers: HeaderReader }, access: Access, db: Db, allowAnonymous: boolean): Promise<Actor | null> {
  if (access === "public") return null;
  const token = tokenOf(request);
  let actor: Actor | null;
  if (token === null) {
    if (!allowAnonymous) throw new HttpError(401, "an API key is required: send Authorization: Bearer <key> or X-API-Key: <key>");
    actor = ANONYMOUS_STORE_ACTOR;
  } else {
    actor = await authenticateApiKey(db, token);
    if (!actor) throw new HttpError(401, "the API key is invalid or revoked");
  }
  if (access !== "read" && agentsWith(actor, access)?.length === 0) throw new HttpError(403, `${actor.name} (${actor.roles.join(", ")}) lacks the "${access}" scope`);
  return actor;
}

/**
 * What an API-key actor may see and serve in the store: runner identities see gate work (of the agents they
 * are bound to), every other identity never does; a bound key sees its agents' rollouts (a non-runner also the
 * training rollouts no agent claims).
 */
export function viewerOf(actor: Actor): StoreViewer {
  const runner = actor.roles.includes("runner");
  const agents = actor.grants.some((g) => g.agent === null) ? null : [...new Set(actor.grants.map((g) => g.agent!))];
  return { identity: actor.id, agents, untagged: !runner, gate: runner, phases: actor.phases ?? null };
}
