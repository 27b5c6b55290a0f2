// Who calls the gate API and what they may do: an API key (judged by the key alone) or a person's session,
// each checked against the one scope table (lib/auth/scopes.ts) through `actorCan`.
import type { Scope } from "@/lib/auth/scopes";
import { actorCan, resolveActor, type Actor } from "@/server/auth/actor";
import { apiKeyOf, authenticateApiKey } from "@/server/auth/api-keys";
import type { Database } from "@/server/db/client";
import { GateApiError } from "./answer";

/** The caller, or a 401 saying what to send. */
export async function identify(request: Request, database: Database): Promise<Actor> {
  const token = apiKeyOf(request.headers);
  if (token !== null) {
    const actor = token === "" ? null : await authenticateApiKey(database.db, token);
    if (!actor) throw new GateApiError(401, "unauthorized", "the API key is invalid or revoked");
    return actor;
  }
  const person = await resolveActor(request.headers, database);
  if (!person) throw new GateApiError(401, "unauthorized", "send Authorization: Bearer <API key> or sign in");
  return person;
}

/** Whether `actor` holds `scope` for some agent: every agent, or one a role of theirs is held for. */
export function holdsAnywhere(actor: Actor, scope: Scope): boolean {
  return actorCan(actor, scope, null) || actor.grants.some((g) => g.agent !== null && actorCan(actor, scope, g.agent));
}

export function forbidden(actor: Actor, scope: Scope, agent: string | null): GateApiError {
  const where = agent === null ? "" : ` for agent "${agent.slice(0, 200)}"`;
  return new GateApiError(403, "forbidden", `${actor.name} lacks the "${scope}" scope${where}`);
}
