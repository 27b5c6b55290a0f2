import { describe, expect, it } from "vitest";
import { grantsAllow, grantsAllowSomeAgent, HUMAN_ROLES, ROLE_SCOPES, SCOPES, scopesFor, SERVICE_ROLES } from "@/lib/auth/scopes";

describe("the role → scope table", () => {
  it("names only known scopes, and every scope is held by some role", () => {
    const held = new Set(Object.values(ROLE_SCOPES).flat());
    for (const s of held) expect(SCOPES).toContain(s);
    for (const s of SCOPES) expect(held.has(s), s).toBe(true);
  });

  it("keeps policy and pointers away from the learner-facing service identities", () => {
    for (const role of ["runner", "algorithm"] as const) {
      for (const s of ["policy:write", "approval:canary", "approval:default", "rollback:execute", "users:manage", "apikeys:manage"] as const) {
        expect(ROLE_SCOPES[role], `${role} must not hold ${s}`).not.toContain(s);
      }
    }
    expect(ROLE_SCOPES.trainer).not.toContain("approval:default");
    expect(ROLE_SCOPES.admin).not.toContain("approval:default"); // admins manage, approvers approve
  });

  it("every person can look after their own account; no service can", () => {
    for (const r of HUMAN_ROLES) expect(ROLE_SCOPES[r]).toContain("account:self");
    for (const r of SERVICE_ROLES) expect(ROLE_SCOPES[r]).not.toContain("account:self");
  });

  it("per-agent grants count only for their agent; instance-wide grants everywhere", () => {
    const grants = [{ role: "viewer" as const, agent: null }, { role: "release_approver" as const, agent: "a" }];
    expect(grantsAllow(grants, "approval:default", "a")).toBe(true);
    expect(grantsAllow(grants, "approval:default", "b")).toBe(false);
    expect(grantsAllow(grants, "approval:default")).toBe(false);
    expect(grantsAllow(grants, "dashboard:read", "b")).toBe(true);
    expect([...scopesFor(grants)].sort()).toEqual([...ROLE_SCOPES.viewer].sort());
  });

  it("a scope held for some agent offers that agent's forms (the start buttons); a viewer's grants do not", () => {
    expect(grantsAllowSomeAgent([{ role: "trainer", agent: "billing-bot" }], "training:run")).toBe(true);
    expect(grantsAllowSomeAgent([{ role: "trainer", agent: null }], "training:run")).toBe(true);
    expect(grantsAllowSomeAgent([{ role: "viewer", agent: null }, { role: "canary_approver", agent: "billing-bot" }], "training:run")).toBe(false);
    expect(grantsAllowSomeAgent([], "training:run")).toBe(false);
  });

  it("every person with any grant, per-agent or global, reads the dashboard and keeps their account everywhere", () => {
    const grants = [{ role: "canary_approver" as const, agent: "a" }];
    for (const agent of [undefined, "a", "b"]) {
      for (const s of ROLE_SCOPES.viewer) expect(grantsAllow(grants, s, agent), `${s} for ${agent ?? "every agent"}`).toBe(true);
    }
    expect(grantsAllow(grants, "approval:canary", "a")).toBe(true);
    expect(grantsAllow(grants, "approval:canary", "b")).toBe(false);
    expect(grantsAllow(grants, "approval:canary")).toBe(false);
    expect([...scopesFor(grants)].sort()).toEqual([...ROLE_SCOPES.viewer].sort());
    expect(scopesFor([]).size).toBe(0); // no grant, nothing
    expect(grantsAllow([{ role: "runner", agent: null }], "account:self")).toBe(false); // services are no people
  });
});
