// The one role → scope table. The server's procedure middleware and the store's API-key check read it;
// the UI reads the same table only to hide what the server would refuse anyway.
export const SCOPES = [
  "dashboard:read", // every page and query of the dashboard
  "store:write", // runners: rollouts, attempts, spans, workers
  "store:enqueue", // algorithms: enqueue rollouts, add and update resources
  "store:admin", // retention and pruning
  "training:run", // start, pause, resume and stop training runs; create candidates
  "gate:run", // (re)run the gate for a candidate: computes evidence, never changes policy
  "policy:write", // evaluators, protected cases, promotion policy, canary boundaries
  "approval:canary", // approve a candidate into its bounded canary
  "approval:default", // make a candidate the approved default
  "approval:reject", // reject / quarantine a candidate with a comment
  "rollback:execute", // move the approved default back to an earlier approved resource
  "apikeys:manage",
  "users:manage", // create and deactivate people, assign roles, register release-bot keys
  "audit:read",
  "account:self", // a person's own account: passkeys, test signatures
  "canary:verify", // record the verification of a canary outcome (destination re-read, judge, human)
] as const;
export type Scope = (typeof SCOPES)[number];

export const HUMAN_ROLES = ["viewer", "trainer", "policy_owner", "canary_approver", "release_approver", "admin"] as const;
export const SERVICE_ROLES = ["runner", "algorithm", "release_bot", "policy", "verifier"] as const;
export type HumanRole = (typeof HUMAN_ROLES)[number];
export type ServiceRole = (typeof SERVICE_ROLES)[number];
export type Role = HumanRole | ServiceRole;

// Every person can read the dashboard and the audit log and look after their own account — whichever
// agent their roles are for (scopesFor).
const READ: Scope[] = ["dashboard:read", "audit:read", "account:self"];

export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  viewer: READ,
  trainer: [...READ, "training:run", "gate:run"],
  policy_owner: [...READ, "policy:write", "gate:run", "canary:verify"],
  canary_approver: [...READ, "approval:canary", "approval:reject"],
  release_approver: [...READ, "approval:canary", "approval:default", "approval:reject", "rollback:execute"],
  admin: [...READ, "training:run", "gate:run", "policy:write", "store:admin", "apikeys:manage", "users:manage"],
  // Service identities (API keys). The learner (runner, algorithm) never writes the exam or verifies an
  // outcome; only the policy service publishes datasets and registry entries; only verifiers verify.
  runner: ["store:write"],
  algorithm: ["store:write", "store:enqueue", "training:run", "gate:run"],
  release_bot: ["dashboard:read", "approval:canary", "approval:default"],
  policy: ["policy:write"],
  verifier: ["canary:verify"],
};

export const ROLE_LABELS: Record<Role, string> = {
  viewer: "Viewer",
  trainer: "Trainer",
  policy_owner: "Policy owner",
  canary_approver: "Canary approver",
  release_approver: "Release approver",
  admin: "Admin",
  runner: "Runner (service)",
  algorithm: "Algorithm (service)",
  release_bot: "Release bot (service)",
  policy: "Policy (service)",
  verifier: "Verifier (service)",
};

export function isServiceRole(role: Role): role is ServiceRole {
  return (SERVICE_ROLES as readonly string[]).includes(role);
}

/** A role held for one agent, or (agent null) for every agent. */
export type RoleGrant<R extends Role = Role> = { role: R; agent: string | null };
export type HumanGrant = RoleGrant<HumanRole>;

/**
 * The scopes `grants` give for `agent`: roles held for every agent always count; roles held for one
 * agent count only when that agent is asked about. Without an agent, only instance-wide roles count,
 * so an operation that names no agent can never be reached through a per-agent role.
 *
 * One exception, on purpose: READ (see the table) is instance-wide for every person with any role
 * grant, per-agent or global. A per-agent role limits what a person may *change* for that agent, not
 * what they may see: every human role holds READ and the viewer role is the least a person can hold,
 * so a per-agent approver sees no more than any viewer. Without it they could neither open the candidate
 * they are asked to approve nor register the passkey their signature needs.
 */
export function scopesFor(grants: readonly RoleGrant[], agent?: string | null): Set<Scope> {
  const scopes = scopesOf(grants.filter((g) => g.agent === null || (agent != null && g.agent === agent)).map((g) => g.role));
  if (grants.some((g) => !isServiceRole(g.role))) for (const s of READ) scopes.add(s);
  return scopes;
}

/** The one permission rule, used by the server middleware and (through `me`) by the UI. */
export function grantsAllow(grants: readonly RoleGrant[], scope: Scope, agent?: string | null): boolean {
  return scopesFor(grants, agent).has(scope);
}

/**
 * Whether `grants` allow `scope` for at least one agent — instance-wide, or through a role held for one agent.
 * What a page asks before offering a form that names its agent (the server checks the agent named).
 */
export function grantsAllowSomeAgent(grants: readonly RoleGrant[], scope: Scope): boolean {
  return grantsAllow(grants, scope) || grants.some((g) => g.agent !== null && grantsAllow(grants, scope, g.agent));
}

export function scopesOf(roles: readonly Role[]): Set<Scope> {
  return new Set(roles.flatMap((r) => ROLE_SCOPES[r]));
}

export function hasScope(roles: readonly Role[], scope: Scope): boolean {
  return roles.some((r) => ROLE_SCOPES[r].includes(scope));
}
