// The HTTP route matrix on both databases: every store REST route, every OTLP signal, the pointers and
// receipts, the gate API, health and every better-auth path × nobody, a key no one was given, each API-key role and each
// person (a real session: no roles, each role for every agent, each role for one agent). The rule per
// route comes from where the server declares it (tests/helpers/route-matrix.ts). Refused cells go to a
// server whose store and database fail on any use beyond identifying the caller; switched-off auth paths
// must answer 404 and write nothing. Gate rollouts get a matrix of their own (tests/helpers/gate-rollout-matrix.ts):
// who may read, dequeue and write the gate's work, per role and binding.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ServiceRole } from "@/lib/auth/scopes";
import { SERVED_AUTH_PATHS } from "@/server/auth/auth-paths";
import { getAuth } from "@/server/auth/better-auth";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { TEST_PASSWORD } from "../../helpers/auth";
import { browserHeaders, callerHeaders, inParallel, matrixPerson, routeMismatch, routeOverHttp, serviceKeys } from "../../helpers/matrix-client";
import { serveMatrixApp, type MatrixServer } from "../../helpers/matrix-server";
import { NOBODY, type Identity } from "../../helpers/permission-matrix";
import { authCells, authEndpoints, gateApiCells, gateCells, healthCells, otlpCells, routeCallers, storeCells, type RouteCell } from "../../helpers/route-matrix";
import { freshGateWork, gateCallers, gateOpOverHttp, gateVerdict, GATE_OPS, SERVER_LABEL, servedGateWork } from "../../helpers/gate-rollout-matrix";
import { createStore } from "@/server/store";
import { GATE_PHASES } from "@/server/store/types";

const callers = routeCallers();
// The store takes API keys only, so every cookie meets the same refusal: the strongest people stand for all.
const keyCallers = callers.filter((c) => c.kind !== "user" || c.label === "admin" || c.label === "admin@agent-x");
const routeCells = [...storeCells(keyCallers), ...otlpCells(keyCallers), ...gateCells(callers), ...gateApiCells(callers), ...healthCells(callers)];

describeEachDialect(`HTTP route matrix (${routeCells.length} route cells + auth paths)`, (dialect) => {
  let database: TestDatabase;
  let live: MatrixServer;
  let refusing: MatrixServer;
  let person: Awaited<ReturnType<typeof matrixPerson>>;
  let keys: Map<ServiceRole, string>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "route-matrix");
    [live, refusing] = await Promise.all([serveMatrixApp(database), serveMatrixApp(database, { refusing: true })]);
    [person, keys] = await Promise.all([matrixPerson(database), serviceKeys(database)]);
  });
  afterAll(async () => {
    await Promise.all([live?.close(), refusing?.close()]);
    await database?.drop();
  });

  async function run(cells: RouteCell[], headers: Record<string, string>): Promise<string[]> {
    const wrong: string[] = [];
    await inParallel(cells, 4, async (cell) => {
      const server = cell.expected === "allowed" || cell.expected === "not-served" ? live : refusing;
      const problem = routeMismatch(cell, await routeOverHttp(server.url, cell, headers));
      if (problem) wrong.push(problem);
    });
    return wrong;
  }

  it.each(callers.map((c) => c.label))("every route as %s", async (label) => {
    const caller = callers.find((c) => c.label === label)!;
    if (caller.kind === "user") await person.become(caller.grants);
    const wrong = await run(routeCells.filter((c) => c.caller.label === label), callerHeaders(caller, person, keys));
    expect(wrong.join("\n")).toBe("");
  });

  it("gate rollouts: every store operation on each gate phase's work × every API-key role, bound and unbound, and nobody", async () => {
    const store = createStore(database, { scanDebounceMs: 0 });
    try {
      const callers = await gateCallers(database);
      const targets = await servedGateWork(store, live.url, callers.find((c) => c.label === SERVER_LABEL)!, GATE_PHASES);
      const wrong: string[] = [];
      const cells = targets.flatMap((t) => GATE_OPS.filter((op) => op !== "dequeue").flatMap((op) => callers.map((c) => ({ op, c, t }))));
      await inParallel(cells, 4, async ({ op, c, t }) => {
        const expected = gateVerdict(op, c, t);
        const got = await gateOpOverHttp(live.url, op, c, t);
        if (got !== expected) wrong.push(`${op} on ${t.phase} work as ${c.label}: expected ${expected}, got ${got}`);
      });
      // A dequeue takes what it is handed: one cell at a time, each on fresh work, the rest cancelled after.
      for (const phase of GATE_PHASES) {
        for (const c of callers) {
          const fresh = await freshGateWork(store, phase);
          const expected = gateVerdict("dequeue", c, fresh.target);
          const got = await gateOpOverHttp(live.url, "dequeue", c, fresh.target);
          if (got !== expected) wrong.push(`dequeue of ${phase} work as ${c.label}: expected ${expected}, got ${got}`);
          await fresh.clear();
        }
      }
      expect(cells.length + GATE_PHASES.length * callers.length).toBe(GATE_PHASES.length * GATE_OPS.length * callers.length);
      expect(wrong.join("\n")).toBe("");
    } finally {
      await store.close();
    }
  });

  it("auth: every better-auth path but sign-in, sign-out and session reads answers 404 and writes nothing", async () => {
    const endpoints = authEndpoints((await getAuth(database)).api as unknown as Record<string, unknown>);
    for (const served of SERVED_AUTH_PATHS.keys()) expect(endpoints.map((e) => e.path), `${served} is served but better-auth has no such endpoint`).toContain(served);
    const session: Identity = { label: "a signed-in person", kind: "user", grants: [] };
    // Refusals are recorded (server/audit/refusal-log.ts): those rows are no writes of a switched-off endpoint.
    const changes = { action: { not: { startsWith: "request.refused" } } };
    const counts = () => Promise.all([database.db.user.count(), database.db.authAccount.count(), database.db.authSession.count(), database.db.authVerification.count(), database.db.auditEvent.count({ where: changes })]);
    const seq = (await database.db.auditEvent.findFirst({ orderBy: { seq: "desc" }, select: { seq: true } }))?.seq ?? 0;
    const before = await counts();
    // What the switched-off writers would take, so a path that was still served would act on it.
    const body = { email: person.email, password: TEST_PASSWORD, currentPassword: TEST_PASSWORD, newPassword: `${TEST_PASSWORD}-new`, name: "Matrix Intruder", token: "matrix-probe", callbackURL: "/" };
    const cells = authCells(endpoints, NOBODY, session, body);
    expect(cells.filter((c) => c.expected === "not-served").length).toBeGreaterThan(20);
    const wrong = [...(await run(cells.filter((c) => c.caller === NOBODY), browserHeaders())), ...(await run(cells.filter((c) => c.caller === session), person.headers))];
    expect(wrong.join("\n")).toBe("");
    expect(await counts()).toEqual(before);
    // and a refusal is recorded only for a path that is served (an unserved one is a 404, not a decision)
    const refused = await database.db.auditEvent.findMany({ where: { seq: { gt: seq }, action: { startsWith: "request.refused" } }, select: { targetId: true } });
    for (const { targetId } of refused) expect([...SERVED_AUTH_PATHS.keys()].map((p) => `auth ${p}`)).toContain(targetId);
  });

  it("auth: signing in is public; signing out ends the session it is sent with", async () => {
    const signIn = await fetch(new URL("/api/auth/sign-in/email", live.url), { method: "POST", headers: browserHeaders(), body: JSON.stringify({ email: person.email, password: TEST_PASSWORD }) });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const sessionOf = async (c: string) => (await (await fetch(new URL("/api/auth/get-session", live.url), { headers: browserHeaders(c) })).json()) as { user?: { email: string } } | null;
    expect((await sessionOf(cookie))?.user?.email).toBe(person.email);
    const out = await fetch(new URL("/api/auth/sign-out", live.url), { method: "POST", headers: browserHeaders(cookie), body: "{}" });
    expect(out.status).toBe(200);
    expect(await sessionOf(cookie)).toBeNull();
    expect((await fetch(new URL("/api/auth/sign-out", live.url), { method: "POST", headers: browserHeaders(), body: "{}" })).status).toBe(200);
  });
  // Who may call which route is decided before the database; permission-matrix-http runs both dialects: PostgreSQL in the full run.
}, { postgresql: "full-run" });
