// Password guessing per account, through better-auth's real handler on both dialects: a guess reserves
// its slot before the password is checked (so parallel guesses cannot overrun the limit), and a browser
// that signed in before keeps its own budget (OWASP's device cookies), so a lockout of the account by
// strangers does not keep out the person who knows the password.
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEVICE_COOKIE, FAILED_SIGN_IN_LIMIT } from "@/server/auth/sign-in-throttle";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { authRequest, cookieHeader, makePerson } from "../../helpers/auth";
import { postFrom, serveAuth } from "../../helpers/auth-server";

const SLOW = 90_000; // up to two dozen scrypt checks per test, on two shared cores

describeEachDialect("sign-in throttle", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "throttle");
  }, SLOW);
  afterAll(() => database?.drop());

  const signInStatus = async (email: string, password: string, headers: Record<string, string> = {}) =>
    (await authRequest(database, "sign-in/email", { email, password }, headers)).status;
  const failuresOf = (email: string) => database.db.auditEvent.count({ where: { action: "auth.sign_in_failed", targetId: email } });

  it("40 parallel wrong guesses over HTTP get at most 10 passwords checked; the rest are refused before any check", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const served = await serveAuth(database, { trustedProxyHops: 0 });
    try {
      // 40 machines (loopback addresses), so the per-address limit has no say
      const net = dialect === "sqlite" ? 31 : 32;
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, i) => postFrom(`127.0.${net}.${i + 1}`, `${served.url}/api/auth/sign-in/email`, { email: person.email, password: `parallel-guess-${i}-wrong` }).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 401)).toHaveLength(FAILED_SIGN_IN_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(40 - FAILED_SIGN_IN_LIMIT);
    } finally {
      await served.close();
    }
    expect(await failuresOf(person.email)).toBe(FAILED_SIGN_IN_LIMIT);
    // the account stays closed to browsers it has not signed in from, even with the right password
    expect(await signInStatus(person.email, person.password)).toBe(429);
  }, SLOW);

  it("a successful sign-in does not use up the budget", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT - 1; i++) expect(await signInStatus(person.email, `almost-${i}-wrong`)).toBe(401);
    for (let i = 0; i < 3; i++) expect(await signInStatus(person.email, person.password)).toBe(200);
    expect(await signInStatus(person.email, "the-last-wrong-one")).toBe(401);
    expect(await signInStatus(person.email, "one-too-many-wrong")).toBe(429);
  }, SLOW);

  it("strangers locking the account out do not stop a browser that signed in before; unknown browsers stay throttled", async () => {
    const person = await makePerson(database, [{ role: "admin", agent: null }]);
    const known = await authRequest(database, "sign-in/email", { email: person.email, password: person.password });
    expect(known.status).toBe(200);
    const device = deviceCookieOf(known);
    expect(device).toMatch(new RegExp(`^(__Secure-)?${DEVICE_COOKIE.replace(".", "\\.")}=`));

    // an attacker guesses from ever-changing addresses until the account is closed to unknown browsers
    const attack: number[] = [];
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT + 2; i++) {
      attack.push(await signInStatus(person.email, `attacker-guess-${i}`, { "x-forwarded-for": `192.0.2.${i + 1}` }));
    }
    expect(attack.slice(0, FAILED_SIGN_IN_LIMIT).every((s) => s === 401)).toBe(true);
    expect(attack.slice(FAILED_SIGN_IN_LIMIT)).toEqual([429, 429]);
    expect(await signInStatus(person.email, person.password)).toBe(429); // unknown browser, right password

    // the person's own browser still gets in with the right password, and gets a fresh device cookie
    const back = await authRequest(database, "sign-in/email", { email: person.email, password: person.password }, { cookie: device });
    expect(back.status).toBe(200);
    expect(cookieHeader(back)).toMatch(/session_token=/);
    expect(deviceCookieOf(back)).not.toBe(device);
  }, SLOW);

  it("a device cookie proves nothing for another account, nor when tampered with", async () => {
    const owner = await makePerson(database, [{ role: "viewer", agent: null }]);
    const victim = await makePerson(database, [{ role: "viewer", agent: null }]);
    const ownerDevice = deviceCookieOf(await authRequest(database, "sign-in/email", { email: owner.email, password: owner.password }));
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT; i++) expect(await signInStatus(victim.email, `lockout-${i}-wrong`)).toBe(401);
    expect(await signInStatus(victim.email, victim.password, { cookie: ownerDevice })).toBe(429);

    for (let i = 0; i < FAILED_SIGN_IN_LIMIT; i++) expect(await signInStatus(owner.email, `owner-lockout-${i}-wrong`)).toBe(401);
    const at = ownerDevice.length - 12; // inside the signature
    const tampered = ownerDevice.slice(0, at) + (ownerDevice[at] === "A" ? "B" : "A") + ownerDevice.slice(at + 1);
    expect(await signInStatus(owner.email, owner.password, { cookie: tampered })).toBe(429);
    expect(await signInStatus(owner.email, owner.password, { cookie: ownerDevice })).toBe(200);
  }, SLOW);

  it("a device cookie that fails too often is locked out itself, without closing the account to other known browsers", async () => {
    const person = await makePerson(database, [{ role: "viewer", agent: null }]);
    const laptop = deviceCookieOf(await authRequest(database, "sign-in/email", { email: person.email, password: person.password }));
    const phone = deviceCookieOf(await authRequest(database, "sign-in/email", { email: person.email, password: person.password }));
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT + 1; i++) statuses.push(await signInStatus(person.email, `stolen-laptop-${i}`, { cookie: laptop }));
    expect(statuses.slice(0, FAILED_SIGN_IN_LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses[FAILED_SIGN_IN_LIMIT]).toBe(429);
    expect(await signInStatus(person.email, person.password, { cookie: laptop })).toBe(429);
    expect(await signInStatus(person.email, person.password, { cookie: phone })).toBe(200);
    expect(await signInStatus(person.email, person.password)).toBe(200); // the device's failures never touched the account's budget
    expect(await failuresOf(person.email)).toBe(FAILED_SIGN_IN_LIMIT);
  }, SLOW);
});

/** The device cookie a response sets, as the Cookie header a browser would send back ("" when none). */
function deviceCookieOf(res: Response): string {
  return (
    res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.split("=")[0]!.replace(/^__Secure-/, "") === DEVICE_COOKIE) ?? ""
  );
}
