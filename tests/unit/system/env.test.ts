import { describe, expect, it } from "vitest";
import { defaultDemoMode, parseEnv } from "@/server/env";

describe("defaultDemoMode", () => {
  it("is on only for the embedded default on a loopback address", () => {
    expect(defaultDemoMode({})).toBe(true);
    expect(defaultDemoMode({ HOSTNAME: "localhost" })).toBe(true);
    expect(defaultDemoMode({ HOSTNAME: "0.0.0.0" })).toBe(false);
    expect(defaultDemoMode({ DATABASE_URL: "postgresql://db/lightgate" })).toBe(false);
    expect(defaultDemoMode({ DATABASE_URL: "file:./data/other.db" })).toBe(false);
  });
});

describe("parseEnv", () => {
  it("names the variable that is wrong", () => {
    expect(() => parseEnv({ PORT: "abc" })).toThrow(/invalid PORT/);
    expect(() => parseEnv({ LIGHTGATE_TRUSTED_PROXY_HOPS: "-1" })).toThrow(/invalid LIGHTGATE_TRUSTED_PROXY_HOPS/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/invalid DATABASE_URL: .*file:, postgres:\/\/ or postgresql:\/\//);
  });
  it("defaults to port 3000 on 127.0.0.1", () => {
    const env = parseEnv({});
    expect([env.PORT, env.HOSTNAME]).toEqual([3000, "127.0.0.1"]);
  });
});
