// The sign-in limits across server processes: two real processes (tests/helpers/processes/auth-server.ts) on one
// PostgreSQL database, guesses spread over both — and sent at once, so the two race. (Several server processes
// are PostgreSQL's deployment; on SQLite one process serves the web, so there the same guesses race inside it.) The per-address limit
// (LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE, better-auth's database storage) and the per-account lock (10 failures,
// sign-in-throttle.ts) each allow exactly their budget in total, not a budget per process.
import { afterAll, beforeAll, expect, it } from "vitest";
import { FAILED_SIGN_IN_LIMIT } from "@/server/auth/sign-in-throttle";
import { makePerson } from "../../helpers/auth";
import { postFrom } from "../../helpers/auth-server";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { startScript, waitFor, type ScriptProcess } from "../../helpers/script-process";

const PER_MINUTE = 6;
const SLOW = 120_000;

describeEachDialect(
  "sign-in limits shared by two server processes",
  (dialect) => {
    let database: TestDatabase;
    let servers: ScriptProcess[] = [];
    const ports = dialect === "sqlite" ? [3351] : [3353, 3354];
    const urls = [0, 1].map((k) => `http://127.0.0.1:${ports[k % ports.length]}/api/auth/sign-in/email`);

    beforeAll(async () => {
      database = await createTestDatabase(dialect, "signin2p");
      const env = { ...process.env, DATABASE_URL: database.url, LIGHTGATE_SIGNIN_ATTEMPTS_PER_MINUTE: String(PER_MINUTE) };
      servers = ports.map((port) => startScript("tests/helpers/processes/auth-server.ts", ["--port", String(port)], env));
      for (const s of servers) await waitFor(async () => s.output().includes("ready http"), 90_000, () => s.output());
    }, SLOW);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await database?.drop();
    });

    it("the per-address limit: 3× the budget sent at once, half to each process, lets exactly the budget through", async () => {
      const from = `127.0.${dialect === "sqlite" ? 31 : 32}.1`;
      const statuses = await Promise.all(
        Array.from({ length: 3 * PER_MINUTE }, (_, i) => postFrom(from, urls[i % 2]!, { email: `nobody-${i}@example.org`, password: `wrong-${i}` }).then((r) => r.status)),
      );
      // Both messages carry the servers' output: a 5xx here (seen once, on an overloaded machine) must say why.
      const said = `${statuses.join(" ")}\n${servers.map((x) => x.output()).join("\n")}`;
      expect(statuses.filter((s) => s === 401), said).toHaveLength(PER_MINUTE);
      expect(statuses.filter((s) => s === 429), said).toHaveLength(2 * PER_MINUTE);
      // Still spent on either process; another address is not.
      for (const url of urls) expect((await postFrom(from, url, { email: "late@example.org", password: "wrong" })).status).toBe(429);
      expect((await postFrom(`127.0.${dialect === "sqlite" ? 31 : 32}.2`, urls[1]!, { email: "other@example.org", password: "wrong" })).status).toBe(401);
      // The refusals are recorded decisions (the first of a window at once, its repeats counted when it closes).
      const refused = await database.db.auditEvent.findMany({ where: { action: "request.refused" } });
      expect(refused.some((e) => (e.after ?? "").includes(`"path":"/api/auth/sign-in/email"`) && (e.after ?? "").includes(`"status":429`))).toBe(true);
    }, SLOW);

    it("the per-account lock: failures from many addresses over both processes lock the account after exactly its budget", async () => {
      const person = await makePerson(database, [{ role: "viewer", agent: null }]);
      // One address per guess (the per-address limit stays out of it), sent in pairs at once, one to each process.
      const statuses: number[] = [];
      for (let i = 0; i < FAILED_SIGN_IN_LIMIT + 4; i += 2) {
        const pair = [0, 1].map((k) => postFrom(`127.0.${dialect === "sqlite" ? 33 : 34}.${i + k + 1}`, urls[k]!, { email: person.email, password: `wrong-${i + k}` }).then((r) => r.status));
        statuses.push(...(await Promise.all(pair)));
      }
      expect(statuses.filter((s) => s === 401)).toHaveLength(FAILED_SIGN_IN_LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(4);
      // Locked on both processes, even with the right password, from a fresh address.
      for (const [k, url] of urls.entries()) expect((await postFrom(`127.0.${dialect === "sqlite" ? 35 : 36}.${k + 1}`, url, { email: person.email, password: person.password })).status).toBe(429);
    }, SLOW);
  },
  { postgresql: "always" },
);
