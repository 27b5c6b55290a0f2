// Where a person lands after signing in: the page their roles work on, read from the scope table (so a new
// role lands sensibly without an edit here). Decisions waiting on someone come first.
import { scopesOf, type Role, type Scope } from "./scopes";

const LANDINGS: { scopes: Scope[]; path: string }[] = [
  { scopes: ["approval:canary", "approval:default", "rollback:execute"], path: "/approvals" },
  { scopes: ["training:run"], path: "/training" },
  { scopes: ["policy:write"], path: "/registries" },
];

/** Per-agent grants count too: an approver for one agent still works on the inbox. */
export function landingPath(roles: readonly Role[]): string {
  const held = scopesOf(roles);
  return LANDINGS.find((l) => l.scopes.some((s) => held.has(s)))?.path ?? "/candidates";
}
