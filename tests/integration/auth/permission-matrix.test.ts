// The permission matrix, generated from the scope table, in process on both databases: every tRPC
// procedure × nobody, a person without roles, every human role for every agent, every API-key role, and
// every human role held for AGENT_X only — called about AGENT_X, about AGENT_Y and naming no agent — is
// allowed or refused exactly as lib/auth/scopes.ts `grantsAllow` says, and refused before any work.
// Procedures added later are covered without touching this file; one built without a scope fails it.
// The same matrix over real HTTP: permission-matrix-http.test.ts; the HTTP routes: route-matrix.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantsAllow, SCOPES } from "@/lib/auth/scopes";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { AGENT_X, AGENT_Y, cells, globalIdentities, perAgentIdentities, PROCEDURES, PUBLIC_PROCEDURES, runCallerCell } from "../../helpers/permission-matrix";

const agentScoped = PROCEDURES.filter((p) => p.meta.agentInput);

describe("permission matrix: every procedure declares who may call it", () => {
  it("finds the procedures, some of them agent-scoped", () => {
    expect(PROCEDURES.length).toBeGreaterThanOrEqual(20);
    expect(agentScoped.length).toBeGreaterThanOrEqual(3);
  });

  it.each(PROCEDURES.map((p) => p.path))("%s declares a scope (or is a listed public procedure)", (path) => {
    const { meta } = PROCEDURES.find((p) => p.path === path)!;
    if (path in PUBLIC_PROCEDURES) {
      expect(meta.public, `${path} is listed as public but not built from publicProcedure`).toBe(true);
      return;
    }
    expect(meta.scope, `${path} has no scope: build it from scopedProcedure(scope)`).toBeDefined();
  });

  // What makes the per-agent cells meaningful, asked of the table itself.
  it.each(perAgentIdentities().map((i) => i.label))("%s gives nothing about another agent beyond what it gives everywhere", (label) => {
    const { grants } = perAgentIdentities().find((i) => i.label === label)!;
    for (const scope of SCOPES) expect(grantsAllow(grants, scope, AGENT_Y), scope).toBe(grantsAllow(grants, scope, null));
  });

  it.each(agentScoped.map((p) => p.path))("%s is reachable through some role held for its agent only", (path) => {
    const scope = agentScoped.find((p) => p.path === path)!.meta.scope!;
    const reaching = perAgentIdentities().filter((i) => grantsAllow(i.grants, scope, AGENT_X) && !grantsAllow(i.grants, scope, AGENT_Y));
    expect(reaching.length, `no per-agent role reaches ${path} (${scope}) for its own agent only`).toBeGreaterThan(0);
  });
});

const every = [...cells(globalIdentities(), [AGENT_X]), ...cells(perAgentIdentities(), [AGENT_X, AGENT_Y])];

describeEachDialect(`permission matrix (tRPC caller, ${every.length} cells)`, (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "matrix");
  });
  afterAll(() => database?.drop());

  it.each(PROCEDURES.map((p) => p.path))("%s as every identity", async (path) => {
    const wrong: string[] = [];
    for (const cell of every.filter((c) => c.procedure.path === path)) {
      const problem = await runCallerCell(database, cell);
      if (problem) wrong.push(problem);
    }
    expect(wrong.join("\n")).toBe("");
  });
});
