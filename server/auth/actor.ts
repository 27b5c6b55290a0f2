// Who is calling: a person with a session, a service with an API key, or nobody.
import { scopesOf, type Role, type Scope } from "@/lib/auth/scopes";
import type { Db } from "@/server/db/client";

export type Actor = {
  kind: "user" | "service";
  id: string;
  name: string;
  roles: Role[];
  scopes: Set<Scope>;
};

export function makeActor(kind: Actor["kind"], id: string, name: string, roles: Role[]): Actor {
  return { kind, id, name, roles, scopes: scopesOf(roles) };
}

/**
 * Resolves the caller of a dashboard request from its headers.
 * Until people can sign in (accounts and sessions arrive with the roles work), every dashboard
 * caller is an anonymous viewer: reads work, every mutation is refused by its scope.
 */
export async function resolveActor(_headers: Headers, _db: Db): Promise<Actor | null> {
  return makeActor("user", "anonymous", "Anonymous viewer", ["viewer"]);
}
