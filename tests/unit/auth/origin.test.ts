import { describe, expect, it } from "vitest";
import { publicOrigin } from "@/server/auth/origin";

describe("the WebAuthn origin and relying-party id", () => {
  it("defaults to http://localhost:$PORT, which passkeys accept", () => {
    expect(publicOrigin({ PORT: "3450" })).toEqual({ origin: "http://localhost:3450", rpId: "localhost", webauthnProblems: [] });
  });

  it("says why a bare IP cannot work", () => {
    for (const o of ["http://127.0.0.1:3000", "https://10.0.0.5", "http://[::1]:3000"]) {
      expect(publicOrigin({ LIGHTGATE_ORIGIN: o }).webauthnProblems.join(" "), o).toMatch(/IP address/);
    }
  });

  it("needs https for any host but localhost", () => {
    expect(publicOrigin({ LIGHTGATE_ORIGIN: "http://lightgate.example.org" }).webauthnProblems.join(" ")).toMatch(/https/);
    expect(publicOrigin({ LIGHTGATE_ORIGIN: "https://lightgate.example.org/" })).toEqual({ origin: "https://lightgate.example.org", rpId: "lightgate.example.org", webauthnProblems: [] });
  });
});
