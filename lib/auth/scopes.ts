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
  "users:manage",
  "audit:read",
] as const;
export type Scope = (typeof SCOPES)[number];

export const HUMAN_ROLES = ["viewer", "trainer", "policy_owner", "canary_approver", "release_approver", "admin"] as const;
export const SERVICE_ROLES = ["runner", "algorithm", "release_bot"] as const;
export type HumanRole = (typeof HUMAN_ROLES)[number];
export type ServiceRole = (typeof SERVICE_ROLES)[number];
export type Role = HumanRole | ServiceRole;

const READ: Scope[] = ["dashboard:read", "audit:read"];

export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  viewer: READ,
  trainer: [...READ, "training:run", "gate:run"],
  policy_owner: [...READ, "policy:write", "gate:run"],
  canary_approver: [...READ, "approval:canary", "approval:reject"],
  release_approver: [...READ, "approval:canary", "approval:default", "approval:reject", "rollback:execute"],
  admin: [...READ, "training:run", "gate:run", "policy:write", "store:admin", "apikeys:manage", "users:manage"],
  // Service identities (API keys). None of them can touch pointers, evaluators or protected cases.
  runner: ["store:write"],
  algorithm: ["store:write", "store:enqueue", "training:run"],
  release_bot: ["dashboard:read", "approval:canary", "approval:default"],
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
};

export function scopesOf(roles: readonly Role[]): Set<Scope> {
  return new Set(roles.flatMap((r) => ROLE_SCOPES[r]));
}

export function hasScope(roles: readonly Role[], scope: Scope): boolean {
  return roles.some((r) => ROLE_SCOPES[r].includes(scope));
}
