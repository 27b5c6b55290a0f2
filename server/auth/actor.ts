// Who is calling: a person with a session, a service with an API key, or nobody.
import { grantsAllow, scopesFor, type Role, type RoleGrant, type Scope } from "@/lib/auth/scopes";
import type { Database } from "@/server/db/client";
import type { ServePhase } from "@/lib/store/phases";
import { getAuth } from "./better-auth";
import { loadGrants } from "./roles";

export type Actor = {
  kind: "user" | "service";
  id: string;
  name: string;
  /** Every role held, for any agent (for display; decisions go through `actorCan`). */
  roles: Role[];
  /** The roles held and for which agent (null: every agent). */
  grants: RoleGrant[];
  /** Scopes held for every agent: what an operation that names no agent may use. */
  scopes: Set<Scope>;
  /** The store phases an API key is bound to serve ("training" and gate phases); null: unbound (all). */
  phases?: readonly ServePhase[] | null;
  email?: string;
};

/**
 * An actor from its grants. Service identities (the store's API keys) pass plain roles, which hold
 * for every agent: `makeActor("service", keyId, name, ["runner"])`.
 */
export function makeActor(kind: Actor["kind"], id: string, name: string, roles: Role[] | RoleGrant[], extra: { email?: string; phases?: readonly ServePhase[] | null } = {}): Actor {
  const grants: RoleGrant[] = roles.map((r) => (typeof r === "string" ? { role: r, agent: null } : r));
  const { phases = null, ...rest } = extra;
  return { kind, id, name, roles: [...new Set(grants.map((g) => g.role))], grants, scopes: scopesFor(grants), phases, ...rest };
}

/** The agents `actor` holds `scope` for: null when it holds it for every agent, else the bound ones (maybe none). */
export function agentsWith(actor: Actor, scope: Scope): string[] | null {
  if (actor.scopes.has(scope)) return null;
  return [...new Set(actor.grants.filter((g) => g.agent !== null && grantsAllow([g], scope, g.agent)).map((g) => g.agent!))];
}

/** May `actor` use `scope` — for `agent` when the operation concerns one agent, else instance-wide. */
export function actorCan(actor: Actor, scope: Scope, agent?: string | null): boolean {
  return grantsAllow(actor.grants, scope, agent);
}

/** The person behind a session cookie in `headers`, with their current roles; null without a valid session. */
export async function resolveActor(headers: Headers, database: Database): Promise<Actor | null> {
  if (!headers.get("cookie")) return null;
  const auth = await getAuth(database);
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const user = await database.db.user.findUnique({ where: { id: session.user.id }, select: { id: true, name: true, email: true, disabledAt: true } });
  if (!user || user.disabledAt) return null;
  return makeActor("user", user.id, user.name, await loadGrants(database.db, user.id), { email: user.email });
}
