// The permission matrix, generated from the scope table: every tRPC procedure × every role and service
// identity (and nobody) is allowed or refused exactly as lib/auth/scopes.ts says. Procedures added
// later are covered without touching this file; one built without a scope fails it.
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUMAN_ROLES, ROLE_SCOPES, SERVICE_ROLES, type Role, type Scope } from "@/lib/auth/scopes";
import { appRouter } from "@/server/routers/_app";
import { makeActor, type Actor } from "@/server/auth/actor";
import type { Database } from "@/server/db/client";
import type { ProcedureMeta } from "@/server/trpc";
import { callerFor } from "../../helpers/caller";
import { createTestDatabase, type TestDatabase } from "../../helpers/db";
import { minimalInput } from "../../helpers/minimal-input";

// The only procedures anyone may call without a scope, each for a stated reason.
const PUBLIC_PROCEDURES: Record<string, string> = {
  "system.status": "health and version for the public status page",
  "auth.me": "answers null without a session, so the shell can offer sign-in",
  "auth.setupStatus": "tells /setup whether a first admin is still needed",
  "auth.createFirstAdmin": "first-run setup; refuses once the instance is set up",
};

type Proc = { _def: { meta?: ProcedureMeta; type: string; inputs: unknown[] } };
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>).sort(([a], [b]) => a.localeCompare(b));
const byPath = new Map(procedures);
const ROLES: Role[] = [...HUMAN_ROLES, ...SERVICE_ROLES];

function actorFor(role: Role): Actor {
  return makeActor((SERVICE_ROLES as readonly string[]).includes(role) ? "service" : "user", `matrix-${role}`, `Matrix ${role}`, [role]);
}

/** A database that fails the test if anything touches it: refusals must come before any work. */
const untouchable = new Proxy({} as Database, {
  get(_t, prop) {
    if (prop === "then") return undefined;
    if (prop === "db") return untouchable;
    throw new Error(`the procedure touched the database (${String(prop)}) before refusing`);
  },
});

function call(database: Database, actor: Actor | null, path: string, input: unknown): Promise<unknown> {
  const caller = callerFor(database, actor) as unknown as Record<string, unknown>;
  const fn = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (i: unknown) => Promise<unknown>;
  return fn(input);
}

async function outcome(p: Promise<unknown>): Promise<{ refused: false } | { refused: true; code: string; message: string }> {
  try {
    await p;
    return { refused: false };
  } catch (e) {
    if (!(e instanceof TRPCError)) throw e;
    const byScope = e.code === "UNAUTHORIZED" || (e.code === "FORBIDDEN" && /lacks the "[^"]+" scope/.test(e.message));
    return byScope ? { refused: true, code: e.code, message: e.message } : { refused: false };
  }
}

describe("permission matrix", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite", "matrix");
  });
  afterAll(() => database?.drop());

  it("finds the procedures", () => {
    expect(procedures.length).toBeGreaterThanOrEqual(20);
  });

  it.each(procedures.map(([path]) => path))("%s declares a scope (or is a listed public procedure)", (path) => {
    const meta = byPath.get(path)!._def.meta ?? {};
    if (path in PUBLIC_PROCEDURES) {
      expect(meta.public, `${path} is listed as public but not built from publicProcedure`).toBe(true);
      return;
    }
    expect(meta.scope, `${path} has no scope: build it from scopedProcedure(scope)`).toBeDefined();
  });

  const scoped = procedures.filter(([path, p]) => p._def.meta?.scope && !(path in PUBLIC_PROCEDURES));
  const cases = scoped.flatMap(([path]) => [...ROLES, "nobody" as const].map((who) => ({ path, who })));

  it.each(cases)("$path as $who", async ({ path, who }) => {
    const proc = byPath.get(path)!;
    const role = who === "nobody" ? null : who;
    const scope = proc._def.meta!.scope as Scope;
    const actor = role ? actorFor(role) : null;
    const allowed = role !== null && ROLE_SCOPES[role].includes(scope);
    if (!allowed) {
      // refused with garbage input and an untouchable database: the check runs before parsing and before any work
      const result = await outcome(call(untouchable, actor, path, { garbage: true }));
      expect(result).toMatchObject({ refused: true, code: role ? "FORBIDDEN" : "UNAUTHORIZED" });
      return;
    }
    const input = minimalInput(proc._def.inputs);
    // Allowed: a minimal valid input runs the procedure (domain errors such as NOT_FOUND are fine);
    // without one, an invalid input must fail validation — which only happens after the scope check passed.
    const result = await outcome(call(database, actor, path, input.ok ? input.value : undefined));
    expect(result, `${role} holds ${scope} but ${path} refused it`).toEqual({ refused: false });
  });
});
