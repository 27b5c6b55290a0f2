import { describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, clientAddress, trustedProxyHops, withClientAddress } from "@/server/auth/client-address";

describe("clientAddress", () => {
  it("is the socket's address unless proxy hops are trusted", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.5", 0)).toBe("127.0.0.1");
    expect(clientAddress("10.0.0.2", "198.51.100.1, 203.0.113.5", 1)).toBe("203.0.113.5");
    expect(clientAddress("10.0.0.2", "198.51.100.1, 203.0.113.5, 10.0.0.1", 2)).toBe("203.0.113.5");
  });
  it("stops at the farthest trustworthy entry: a short chain, a malformed hop", () => {
    expect(clientAddress("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "203.0.113.5", 3)).toBe("203.0.113.5");
    expect(clientAddress("10.0.0.2", "203.0.113.5, not-an-ip", 2)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", ["198.51.100.1", "203.0.113.5"], 1)).toBe("203.0.113.5");
    expect(clientAddress(undefined, "203.0.113.5", 0)).toBeNull();
  });
});

describe("trustedProxyHops", () => {
  it("defaults to 0 and refuses nonsense, naming the variable", () => {
    expect(trustedProxyHops({})).toBe(0);
    expect(trustedProxyHops({ LIGHTGATE_TRUSTED_PROXY_HOPS: "2" })).toBe(2);
    for (const bad of ["-1", "1.5", "lots", "11"]) expect(() => trustedProxyHops({ LIGHTGATE_TRUSTED_PROXY_HOPS: bad })).toThrow(/LIGHTGATE_TRUSTED_PROXY_HOPS/);
  });
});

describe("withClientAddress (plain `next start`, nobody stamped the request)", () => {
  const request = (headers: Record<string, string>) => new Request("http://localhost/api/auth/sign-in/email", { method: "POST", headers, body: "{}" });
  it("drops a client-written address header, and without trusted hops names nobody", async () => {
    const out = withClientAddress(request({ [CLIENT_ADDRESS_HEADER]: "203.0.113.5", "x-forwarded-for": "203.0.113.6" }), 0, false);
    expect(out.headers.get(CLIENT_ADDRESS_HEADER)).toBeNull();
    expect(await out.text()).toBe("{}");
  });
  it("with trusted hops takes the address the nearest proxy appended", () => {
    const out = withClientAddress(request({ [CLIENT_ADDRESS_HEADER]: "203.0.113.5", "x-forwarded-for": "192.0.2.1, 198.51.100.7" }), 1, false);
    expect(out.headers.get(CLIENT_ADDRESS_HEADER)).toBe("198.51.100.7");
  });
  it("leaves a request the server stamped alone", () => {
    const stamped = request({ [CLIENT_ADDRESS_HEADER]: "127.0.0.9" });
    expect(withClientAddress(stamped, 0, true)).toBe(stamped);
  });
});
