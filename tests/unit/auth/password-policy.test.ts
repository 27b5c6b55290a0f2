import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH, passwordProblems } from "@/lib/auth/password-policy";

describe("password rule", () => {
  it("accepts long, unpredictable passwords", () => {
    for (const p of ["correct-horse-battery-7", "a-long-test-passphrase-42", "Zq9!wL2#rT6$yU"]) expect(passwordProblems(p), p).toEqual([]);
  });

  it("refuses short, common, repetitive, sequential and personal ones, saying why", () => {
    expect(passwordProblems("Sh0rt!pass")).toContain(`Use at least ${MIN_PASSWORD_LENGTH} characters.`);
    expect(passwordProblems("Password1234!").join(" ")).toMatch(/most common/);
    expect(passwordProblems("lightgate2026").join(" ")).toMatch(/most common/);
    expect(passwordProblems("aaaaaaaaaaaaaaaa").join(" ")).toMatch(/different characters/);
    expect(passwordProblems("abcdefghijklmnop").join(" ")).toMatch(/consecutive/);
    expect(passwordProblems("rosa.albers-secure-9", { email: "rosa.albers@example.org" }).join(" ")).toMatch(/email/);
    expect(passwordProblems("i-am-albers-truly-9", { name: "Rosa Albers" }).join(" ")).toMatch(/name/);
    expect(passwordProblems("x".repeat(129)).join(" ")).toMatch(/at most/);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(passwordProblems("🔑🔒🗝️🔐🔓🛡️").some((p) => p.startsWith("Use at least"))).toBe(true);
  });

  it("never accepts anything shorter than the minimum (property)", () => {
    fc.assert(fc.property(fc.string({ maxLength: MIN_PASSWORD_LENGTH - 1 }), (p) => passwordProblems(p).length > 0));
  });
});
