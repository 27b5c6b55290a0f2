import { describe, expect, it } from "vitest";
import { isPublicPath, safeNext, signInUrl } from "@/lib/auth/public-paths";

describe("public paths and the return address after sign-in", () => {
  it("only /status, /sign-in and /setup are public", () => {
    for (const p of ["/status", "/sign-in", "/setup"]) expect(isPublicPath(p), p).toBe(true);
    for (const p of ["/", "/training", "/audit", "/settings/people", "/statusx", "/sign-inx"]) expect(isPublicPath(p), p).toBe(false);
  });

  it("follows same-site paths only (no open redirect)", () => {
    expect(safeNext("/candidates?x=1")).toBe("/candidates?x=1");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "javascript:alert(1)", "/a\nb", "", null, undefined]) {
      expect(safeNext(bad), String(bad)).toBe("/");
    }
  });

  it("builds the sign-in address with the page to return to", () => {
    expect(signInUrl("/candidates?x=1")).toBe("/sign-in?next=%2Fcandidates%3Fx%3D1");
    expect(signInUrl("/")).toBe("/sign-in");
  });
});
