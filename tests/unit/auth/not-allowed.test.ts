import { describe, expect, it } from "vitest";
import { needsScope, rolesHolding } from "@/lib/auth/not-allowed";

describe("the one 'not allowed' sentence", () => {
  it("names the scope, the agent and the roles holding it, from the scope table", () => {
    expect(rolesHolding("approval:default")).toBe("the Release approver role");
    expect(rolesHolding("gate:run")).toBe("the Trainer, Policy owner and Admin roles");
    expect(needsScope("Re-running the gate", "gate:run", "support-desk")).toBe('Re-running the gate needs the "gate:run" scope for support-desk, which the Trainer, Policy owner and Admin roles hold.');
    expect(needsScope("Rolling back", "rollback:execute")).toBe('Rolling back needs the "rollback:execute" scope, which the Release approver role holds.');
    expect(needsScope("Verifying", "store:write")).toBe('Verifying needs the "store:write" scope, which no person\'s role (service identities only) holds.');
  });
});
