// The role × procedure matrix, generated: every tRPC procedure, every identity (nobody, a person without
// roles, each role for every agent, each role for one agent, each API-key role) and the verdict the scope
// table gives — always through lib/auth/scopes.ts `grantsAllow`, never a copy of the table.
import { TRPCError } from "@trpc/server";
import { grantsAllow, HUMAN_ROLES, SERVICE_ROLES, type RoleGrant, type Scope } from "@/lib/auth/scopes";
import { makeActor, type Actor } from "@/server/auth/actor";
import type { Database } from "@/server/db/client";
import { appRouter } from "@/server/routers/_app";
import type { ProcedureMeta } from "@/server/trpc";
import { callerFor } from "./caller";
import { minimalInput } from "./minimal-input";

// The only procedures anyone may call without a scope, each for a stated reason.
export const PUBLIC_PROCEDURES: Record<string, string> = {
  "system.status": "healthy / not healthy for anyone (the public status page); the database and process only with dashboard:read",
  "auth.me": "answers null without a session, so the shell can offer sign-in",
  "auth.setupStatus": "tells /setup whether a first admin is still needed",
  "auth.createFirstAdmin": "first-run setup; refuses once the instance is set up",
};

/** The one agent per-agent roles are held for, and one they are not. */
export const AGENT_X = "agent-x";
export const AGENT_Y = "agent-y";

type Proc = { _def: { meta?: ProcedureMeta; type: "query" | "mutation" | "subscription"; inputs: unknown[] } };
export type Procedure = { path: string; type: Proc["_def"]["type"]; meta: ProcedureMeta; inputs: unknown[] };

export const PROCEDURES: Procedure[] = Object.entries(appRouter._def.procedures as unknown as Record<string, Proc>)
  .map(([path, p]) => ({ path, type: p._def.type, meta: p._def.meta ?? {}, inputs: p._def.inputs }))
  .sort((a, b) => a.path.localeCompare(b.path));

/** Who calls: nobody, or a person / service with role grants (agent null: for every agent). */
export type Identity = { label: string; kind: "nobody" | "user" | "service"; grants: RoleGrant[] };

export const NOBODY: Identity = { label: "nobody", kind: "nobody", grants: [] };

/** Nobody, a person whose roles were all revoked, each human role for every agent, each API-key role. */
export function globalIdentities(): Identity[] {
  return [
    NOBODY,
    { label: "person without roles", kind: "user", grants: [] },
    ...HUMAN_ROLES.map((role): Identity => ({ label: role, kind: "user", grants: [{ role, agent: null }] })),
    ...SERVICE_ROLES.map((role): Identity => ({ label: `${role} (API key)`, kind: "service", grants: [{ role, agent: null }] })),
  ];
}

/** Each human role held for AGENT_X only. */
export function perAgentIdentities(): Identity[] {
  return HUMAN_ROLES.map((role): Identity => ({ label: `${role}@${AGENT_X}`, kind: "user", grants: [{ role, agent: AGENT_X }] }));
}


export function actorOf(identity: Identity): Actor | null {
  if (identity.kind === "nobody") return null;
  return makeActor(identity.kind, `matrix-${identity.label}`, `Matrix ${identity.label}`, identity.grants);
}

export type Verdict = "allowed" | "unauthorized" | "forbidden";

/** What the table says `identity` gets for `scope` about `agent` (null: an operation that names no agent). */
export function expectedVerdict(identity: Identity, scope: Scope | "public", agent: string | null): Verdict {
  if (scope === "public") return "allowed";
  if (identity.kind === "nobody") return "unauthorized";
  return grantsAllow(identity.grants, scope, agent) ? "allowed" : "forbidden";
}

/** One cell: a procedure called about an agent (null: the agent field left out, or a procedure that names none). */
export type Cell = { procedure: Procedure; identity: Identity; agent: string | null; expected: Verdict };

/** Every cell for `identities`: agent-scoped procedures for each of `agents` and with no agent, the others once. */
export function cells(identities: Identity[], agents: string[]): Cell[] {
  return PROCEDURES.flatMap((procedure) => {
    const scope = procedure.meta.public ? "public" : procedure.meta.scope!;
    const about = procedure.meta.agentInput ? [...agents, null] : [null];
    return identities.flatMap((identity) => about.map((agent) => ({ procedure, identity, agent, expected: expectedVerdict(identity, scope, agent) })));
  });
}

/**
 * A generated sample of `all` that still covers every procedure with each verdict it has, every identity with
 * each verdict it gets, and every agent-scoped procedure about each agent: greedy over the cells in an order
 * rotated per procedure, so the identities chosen differ from one procedure to the next.
 */
export function coveringSample(all: Cell[]): Cell[] {
  const procIndex = new Map(PROCEDURES.map((p, i) => [p.path, i]));
  const labels = [...new Set(all.map((c) => c.identity.label))];
  const identIndex = new Map(labels.map((l, i) => [l, i]));
  const rank = (c: Cell) => ((procIndex.get(c.procedure.path)! + identIndex.get(c.identity.label)!) % labels.length) * 1e4 + procIndex.get(c.procedure.path)!;
  const covered = new Set<string>();
  const targets = (c: Cell) => [
    `proc ${c.procedure.path} ${c.expected}`,
    `identity ${c.identity.label} ${c.expected}`,
    ...(c.procedure.meta.agentInput ? [`agent ${c.procedure.path} ${c.identity.grants.some((g) => g.agent !== null)} ${c.agent}`] : []),
  ];
  return [...all]
    .sort((a, b) => rank(a) - rank(b))
    .filter((c) => {
      const fresh = targets(c).filter((t) => !covered.has(t));
      fresh.forEach((t) => covered.add(t));
      return fresh.length > 0;
    });
}

/**
 * The input a cell sends. A refused cell sends garbage (with the agent it is about), so a refusal that came
 * after parsing would show as a validation error; an allowed one a minimal valid input about that agent
 * (domain errors such as NOT_FOUND are fine), or — when none can be made — one that fails validation,
 * which only happens after the scope check passed.
 */
export function inputFor(cell: Cell): unknown {
  const field = cell.procedure.meta.agentInput;
  const about = field && cell.agent !== null ? { [field]: cell.agent } : {};
  if (cell.expected !== "allowed") return { ...about, garbage: true };
  const minimal = minimalInput(cell.procedure.inputs);
  if (!minimal.ok) return field ? about : undefined;
  if (!field || minimal.value === null || typeof minimal.value !== "object") return minimal.value;
  const value = { ...(minimal.value as Record<string, unknown>), ...about };
  if (cell.agent === null) delete value[field];
  return value;
}

/** A database that fails the cell if anything touches it: refusals must come before any work. */
export const untouchableDatabase: Database = new Proxy({} as Database, {
  get(_t, prop) {
    if (prop === "then") return undefined;
    if (prop === "db") return untouchableDatabase;
    throw new Error(`the procedure touched the database (${String(prop)}) before refusing`);
  },
});

export type Outcome = Verdict | `error: ${string}`;

export function callProcedure(database: Database, actor: Actor | null, path: string, input: unknown): Promise<unknown> {
  const caller = callerFor(database, actor) as unknown as Record<string, unknown>;
  const fn = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (i: unknown) => Promise<unknown>;
  return fn(input);
}

export const SCOPE_REFUSAL = /lacks the "[^"]+" scope/;

/** How a call ended, as the matrix counts it: refused for scope reasons, an internal error, or allowed. */
export function outcomeOf(code: string, message: string): Outcome {
  if (code === "UNAUTHORIZED") return "unauthorized";
  if (code === "FORBIDDEN" && SCOPE_REFUSAL.test(message)) return "forbidden";
  if (code === "INTERNAL_SERVER_ERROR") return `error: ${message}`;
  return "allowed";
}

export async function callerOutcome(p: Promise<unknown>): Promise<Outcome> {
  try {
    await p;
    return "allowed";
  } catch (e) {
    if (!(e instanceof TRPCError)) throw e;
    return outcomeOf(e.code, e.message);
  }
}

/** "<procedure> as <identity> about <agent>: expected X, got Y" for every cell that went otherwise. */
export function mismatch(cell: Cell, got: Outcome): string | null {
  if (got === cell.expected) return null;
  const about = cell.agent === null ? "" : ` about ${cell.agent}`;
  return `${cell.procedure.path} as ${cell.identity.label}${about}: expected ${cell.expected}, got ${got}`;
}

/** Runs one cell in process: refused cells against a database that fails on any use. */
export async function runCallerCell(database: Database, cell: Cell): Promise<string | null> {
  const target = cell.expected === "allowed" ? database : untouchableDatabase;
  return mismatch(cell, await callerOutcome(callProcedure(target, actorOf(cell.identity), cell.procedure.path, inputFor(cell))));
}
