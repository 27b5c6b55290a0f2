// Who a request body is charged to (server/auth/body-caller.ts), judged from the headers alone: a valid key,
// a session cookie that better-auth signed, else a stranger by address — an invalid key or a forged cookie
// never passes for someone, so it can neither draw on signed-in people's reserve nor claim a share of its own.
import { beforeAll, afterAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { callerIdentifier, knownCaller } from "@/server/auth/body-caller";
import { cookieHeader, authRequest, makePerson, TEST_PASSWORD } from "../../helpers/auth";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const headers = (h: Record<string, string>) => new Headers(h);

describeEachDialect("body callers", (dialect) => {
  let db: TestDatabase;
  let cookie: string;
  let key: { token: string; id: string };

  beforeAll(async () => {
    db = await createTestDatabase(dialect, "caller");
    const person = await makePerson(db, [{ role: "viewer", agent: null }]);
    const res = await authRequest(db, "sign-in/email", { email: person.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    cookie = cookieHeader(res);
    const created = await createApiKey(db.db, { name: "caller key", role: "runner" });
    key = { token: created.token, id: created.key.id };
  });
  afterAll(() => db?.drop());

  it("a signed session is a person, a valid key is its key, nothing is the address", async () => {
    const identify = callerIdentifier(async () => db);
    const person = await identify(headers({ cookie }), "203.0.113.9");
    expect(person.kind).toBe("person");
    expect(person.id).not.toContain(cookie.split("=")[1]!.split(".")[0]!); // the token itself is not kept
    expect(await identify(headers({ authorization: `Bearer ${key.token}` }), "203.0.113.9")).toEqual({ kind: "key", id: key.id });
    expect(await identify(headers({}), "203.0.113.9")).toEqual({ kind: "stranger", id: "203.0.113.9" });
    expect(await identify(headers({}), null)).toEqual({ kind: "stranger", id: "unknown" });
  });

  it("a forged or unsigned cookie, and an invalid key beside a valid cookie, are strangers", async () => {
    const identify = callerIdentifier(async () => db);
    const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
    for (const forged of [`lightgate.session_token=${token}`, `lightgate.session_token=${token}.${"A".repeat(43)}=`, "lightgate.session_token=AAAA.BBBB", "lightgate.session_token=%E0%A4%A"]) {
      expect(await identify(headers({ cookie: forged }), "198.51.100.4"), forged).toEqual({ kind: "stranger", id: "198.51.100.4" });
    }
    const wrongKey = `${key.token.slice(0, -4)}AAAA`;
    expect(await identify(headers({ cookie, authorization: `Bearer ${wrongKey}` }), "198.51.100.4")).toEqual({ kind: "stranger", id: "198.51.100.4" });
    expect(await identify(headers({ cookie, authorization: "Basic YWRtaW46YWRtaW4=" }), "198.51.100.4")).toEqual({ kind: "stranger", id: "198.51.100.4" });
  });

  it("without the database, only a key the cache already vouches for is known", async () => {
    const fresh = await createApiKey(db.db, { name: "uncached key", role: "runner" });
    expect(knownCaller(headers({ authorization: `Bearer ${fresh.token}` }), "192.0.2.1")).toEqual({ kind: "stranger", id: "192.0.2.1" });
    await callerIdentifier(async () => db)(headers({ authorization: `Bearer ${fresh.token}` }), null); // the handler's check fills the cache
    expect(knownCaller(headers({ authorization: `Bearer ${fresh.token}` }), "192.0.2.1")).toEqual({ kind: "key", id: fresh.key.id });
  });
});
