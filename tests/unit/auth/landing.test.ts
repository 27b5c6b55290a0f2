import { describe, expect, it } from "vitest";
import { landingPath } from "@/lib/auth/landing";

describe("where each person lands", () => {
  it("follows the role's work, decisions first", () => {
    expect(landingPath(["viewer"])).toBe("/candidates");
    expect(landingPath(["trainer"])).toBe("/training");
    expect(landingPath(["policy_owner"])).toBe("/registries");
    expect(landingPath(["canary_approver"])).toBe("/approvals");
    expect(landingPath(["release_approver"])).toBe("/approvals");
    expect(landingPath(["admin"])).toBe("/training");
    expect(landingPath(["trainer", "release_approver"])).toBe("/approvals");
    expect(landingPath([])).toBe("/candidates");
  });
});
