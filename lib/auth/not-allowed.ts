// The one way the dashboard says an action is not allowed: what needs which scope, for which agent, and which
// roles hold it — read from the scope table, so the sentence never drifts from what the server checks.
import { HUMAN_ROLES, ROLE_LABELS, ROLE_SCOPES, type Scope } from "./scopes";

/** The people's roles that hold `scope` ("Trainer, Policy owner and Admin"). */
export function rolesHolding(scope: Scope): string {
  const labels = HUMAN_ROLES.filter((r) => ROLE_SCOPES[r].includes(scope)).map((r) => ROLE_LABELS[r]);
  if (labels.length === 0) return "no person's role (service identities only)";
  return labels.length === 1 ? `the ${labels[0]} role` : `the ${labels.slice(0, -1).join(", ")} and ${labels.at(-1)} roles`;
}

/** `Re-running the gate needs the "gate:run" scope for support-desk, which the Trainer, Policy owner and Admin roles hold.` */
export function needsScope(action: string, scope: Scope, agent?: string | null): string {
  const holders = rolesHolding(scope);
  const which = holders.startsWith("no ") ? `which ${holders} holds` : `which ${holders} ${holders.endsWith("roles") ? "hold" : "holds"}`;
  return `${action} needs the "${scope}" scope${agent ? ` for ${agent}` : ""}, ${which}.`;
}
