// Cross-site request forgery against tRPC, over real HTTP through the endpoint's fetch handler: a page on
// another site can make the browser post a form with the session cookie attached; no such request may
// reach a procedure. Observable harm here: passkeys.beginRegistration (no input) writes a signing nonce.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { publicOrigin } from "@/server/auth/origin";
import { handleTrpcRequest } from "@/server/trpc-http";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { makePerson, signIn } from "../../helpers/auth";
import { serveFetch, type Served } from "../../helpers/auth-server";

const EVIL = "https://evil.example";

describeEachDialect("tRPC refuses cross-site and non-JSON requests", (dialect) => {
  let database: TestDatabase;
  let served: Served;
  let cookie: string;
  const { origin } = publicOrigin();
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "csrf");
    served = await serveFetch((req) => handleTrpcRequest(req, { database }));
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    cookie = await signIn(database, person.email, person.password);
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    await database?.drop();
  });

  const nonces = () => database.db.signingNonce.count({ where: { purpose: "passkey-registration" } });
  const call = (path: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit }) =>
    fetch(`${served.url}/api/trpc/${path}`, { method: init.method ?? "POST", headers: init.headers, body: init.body });
  const messageOf = async (res: Response) => JSON.stringify(await res.json());

  it("a cross-site form post with the session cookie reaches no mutation", async () => {
    const before = await nonces();
    const form = new FormData();
    form.set("anything", "x");
    const hostile: [string, Record<string, string>, BodyInit][] = [
      ["multipart, cross-site", { cookie, origin: EVIL, "sec-fetch-site": "cross-site" }, form],
      ["multipart, Origin only", { cookie, origin: EVIL }, form],
      ["text/plain", { cookie, origin: EVIL, "sec-fetch-site": "cross-site", "content-type": "text/plain" }, "{}"],
      ["urlencoded", { cookie, origin: EVIL, "content-type": "application/x-www-form-urlencoded" }, "a=1"],
    ];
    for (const [what, headers, body] of hostile) {
      const res = await call("passkeys.beginRegistration", { headers, body });
      expect([403, 415], what).toContain(res.status);
      expect(await messageOf(res), what).toMatch(/content-type|cross-site/);
    }
    expect(await nonces()).toBe(before);
  });

  it("a session cookie works only from the dashboard's own origin, whatever the content type", async () => {
    const before = await nonces();
    const json = { "content-type": "application/json" };
    for (const headers of [
      { ...json, cookie, "sec-fetch-site": "cross-site" },
      { ...json, cookie, "sec-fetch-site": "same-site", origin: "http://admin.localhost:3000" },
      { ...json, cookie, origin: EVIL },
      { ...json, cookie, origin: "null" },
    ]) {
      const res = await call("passkeys.beginRegistration", { headers, body: "{}" });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await messageOf(res)).toMatch(/cross-site request refused/);
    }
    const get = await call("auth.me", { method: "GET", headers: { cookie, "sec-fetch-site": "cross-site" } });
    expect(get.status).toBe(403);
    expect(await nonces()).toBe(before);

    // the dashboard itself, and a non-browser holding the cookie (no Origin, no Sec-Fetch-Site), get through
    expect((await call("passkeys.beginRegistration", { headers: { ...json, cookie, origin, "sec-fetch-site": "same-origin" }, body: "{}" })).status).toBe(200);
    expect((await call("passkeys.beginRegistration", { headers: { ...json, cookie, origin }, body: "{}" })).status).toBe(200);
    expect((await call("passkeys.beginRegistration", { headers: { ...json, cookie }, body: "{}" })).status).toBe(200);
    expect(await nonces()).toBe(before + 3);
  });

  it("non-JSON posts are refused even from the dashboard's origin", async () => {
    const before = await nonces();
    for (const type of ["multipart/form-data; boundary=x", "application/octet-stream", "text/plain"]) {
      const res = await call("passkeys.beginRegistration", { headers: { cookie, origin, "sec-fetch-site": "same-origin", "content-type": type }, body: "--x--" });
      expect(res.status, type).toBe(415);
    }
    expect(await nonces()).toBe(before);
  });

  it("API-key callers are no browsers: their key decides, whatever Origin says", async () => {
    const { token } = await createApiKey(database.db, { name: "csrf bot", role: "release_bot" });
    const res = await call("auth.me", { method: "GET", headers: { authorization: `Bearer ${token}`, cookie, origin: EVIL, "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(200);
    expect(await messageOf(res)).toMatch(/"kind":"service"/);
    // without any cookie a cross-site request carries no one's authority; it is answered as nobody
    const anonymous = await call("auth.me", { method: "GET", headers: { origin: EVIL, "sec-fetch-site": "cross-site" } });
    expect(anonymous.status).toBe(200);
  });
});
