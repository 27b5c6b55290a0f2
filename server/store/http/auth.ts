// Who may call the store over HTTP. Writers present an API key (`Authorization: Bearer <key>` or
// `X-API-Key: <key>`); reads need any valid key, except resources (they hold credentials: store:write, so a
// release bot's key is refused); writes need the route's scope (lib/auth/scopes.ts):
// runners `store:write` (rollouts, attempts, spans, workers), algorithms also `store:enqueue` (enqueue,
// resources). With LIGHTGATE_ALLOW_ANONYMOUS_STORE=1 on a loopback-bound server, key-less clients act as
// an anonymous algorithm — never when bound to another address.
import type { Scope } from "@/lib/auth/scopes";
import { makeActor, type Actor } from "@/server/auth/actor";
import { apiKeyOf, authenticateApiKey } from "@/server/auth/api-keys";
import type { Db } from "@/server/db/client";
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
  if (access !== "read" && !actor.scopes.has(access)) throw new HttpError(403, `${actor.name} (${actor.roles.join(", ")}) lacks the "${access}" scope`);
  return actor;
}
