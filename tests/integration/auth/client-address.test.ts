// Which address the per-address sign-in limit counts, over real HTTP: the socket's own unless trusted
// proxy hops are configured, so a client rotating X-Forwarded-For (or writing our own header) is still
// one client.
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "@/server/auth/client-address";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { makePerson } from "../../helpers/auth";
import { postFrom, serveAuth, type Served } from "../../helpers/auth-server";

const PER_MINUTE = 10; // LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE's default
const SLOW = 90_000;

describeEachDialect("client address for the sign-in limit", (dialect) => {
  let database: TestDatabase;
  let direct: Served;
  let proxied: Served;
  // Each case connects from its own loopback address: the per-address limiter outlives a test.
  const from = (n: number) => `127.0.${dialect === "sqlite" ? 21 : 22}.${n}`;
  const far = (n: number) => `${dialect === "sqlite" ? "203.0.113" : "198.18.0"}.${n}`; // "public" addresses a client claims
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "clientaddr");
    direct = await serveAuth(database, { trustedProxyHops: 0 });
    proxied = await serveAuth(database, { trustedProxyHops: 1 });
  }, SLOW);
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
    await database?.drop();
  });

  const guess = (server: Served, local: string, i: number, headers: Record<string, string>) =>
    postFrom(local, `${server.url}/api/auth/sign-in/email`, { email: `nobody-${i}@example.org`, password: `guess-${i}-wrong` }, headers).then((r) => r.status);

  it("by default X-Forwarded-For is ignored: rotating it does not escape the per-address limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= PER_MINUTE; i++) statuses.push(await guess(direct, from(1), i, { "x-forwarded-for": far(i + 1) }));
    expect(statuses.slice(0, PER_MINUTE).every((s) => s === 401)).toBe(true);
    expect(statuses[PER_MINUTE]).toBe(429);
  }, SLOW);

  it("a client-written client-address header is replaced by the server's own", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= PER_MINUTE; i++) statuses.push(await guess(direct, from(2), i, { [CLIENT_ADDRESS_HEADER]: far(i + 1) }));
    expect(statuses[PER_MINUTE]).toBe(429);
  }, SLOW);

  it("with one trusted proxy hop, the address that proxy appended counts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= PER_MINUTE; i++) statuses.push(await guess(proxied, from(3), i, { "x-forwarded-for": `198.51.100.77, ${far(i + 1)}` }));
    expect(statuses.every((s) => s === 401)).toBe(true);
    // ... and a client cannot get around its proxy by prepending addresses of its own
    const pinned: number[] = [];
    for (let i = 0; i <= PER_MINUTE; i++) pinned.push(await guess(proxied, from(3), i, { "x-forwarded-for": `192.0.2.${i + 1}, ${far(200)}` }));
    expect(pinned[PER_MINUTE]).toBe(429);
  }, SLOW);

  it("the session records the address the limit used", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const res = await postFrom(from(4), `${direct.url}/api/auth/sign-in/email`, { email: person.email, password: person.password }, { "x-forwarded-for": far(9) });
    expect(res.status).toBe(200);
    const viaProxy = await postFrom(from(4), `${proxied.url}/api/auth/sign-in/email`, { email: person.email, password: person.password }, { "x-forwarded-for": far(9) });
    expect(viaProxy.status).toBe(200);
    const sessions = await database.db.authSession.findMany({ where: { userId: person.id }, orderBy: { createdAt: "asc" } });
    expect(sessions.map((s) => s.ipAddress)).toEqual([from(4), far(9)]);
  }, SLOW);
  // Which address a request comes from is decided before the database; the limit's rows are sign-in-throttle's point: PostgreSQL in the full run.
}, { postgresql: "full-run" });
