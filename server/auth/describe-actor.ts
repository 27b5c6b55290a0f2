// The caller as the UI sees it (the `me` query): enough to mirror every permission decision.
import type { Actor } from "./actor";

export function describeActor(actor: Actor | null) {
  if (!actor) return null;
  return { kind: actor.kind, id: actor.id, name: actor.name, email: actor.email ?? null, roles: actor.roles, grants: actor.grants, scopes: [...actor.scopes].sort() };
}
