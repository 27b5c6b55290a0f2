/**
 * tRPC setup, in the order a request meets it.
 *
 * 1. CONTEXT — what every procedure can use: the database and the calling actor.
 * 2. INITIALISATION — transformer and error shape (zod issues flattened so the UI can name the field).
 * 3. MIDDLEWARE — domain errors become their tRPC code; authentication, then one scope check per
 *    procedure (lib/auth/scopes.ts), for the agent named in the input when the procedure is agent-scoped.
 * 4. PROCEDURES — `publicProcedure` (health, `me`, first-run setup) and `scopedProcedure(scope)` for
 *    everything else.
 *    A procedure without a scope cannot be written: the permission matrix test walks the router
 *    and fails on any procedure that was not built from `scopedProcedure`.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import { actorCan, resolveActor, type Actor } from "./auth/actor";
import { apiKeyOf, authenticateApiKey } from "./auth/api-keys";
import { getDatabase, type Database, type Db } from "./db/client";
import { badInput, DomainError } from "./errors";
import { NUL_REFUSAL, nulPath } from "./http/nul";

// 1. CONTEXT
export type Context = { db: Db; database: Database; actor: Actor | null; headers: Headers };

// Service identities (release bots) call with their API key; people with their session cookie. A request that
// presents a key is judged by that key alone, so a bad key never falls back to a browser session.
export async function createContext(opts: { headers: Headers; database?: Database }): Promise<Context> {
  const database = opts.database ?? (await getDatabase());
  const key = apiKeyOf(opts.headers);
  const actor = key === null ? await resolveActor(opts.headers, database) : await authenticateApiKey(database.db, key);
  return { db: database.db, database, actor, headers: opts.headers };
}

// 2. INITIALISATION
export type ProcedureMeta = { scope?: Scope; public?: true; agentInput?: string };

const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause.issues.map((i) => ({ path: i.path.join("."), message: i.message })) : null;
    const field = error.cause instanceof DomainError ? (error.cause.field ?? null) : null;
    return { ...shape, data: { ...shape.data, zodIssues: zod, field } };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

// 3. MIDDLEWARE
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    throw new TRPCError({ code: result.error.cause.code, message: result.error.cause.message, cause: result.error.cause });
  }
  return result;
});

/** The agent an agent-scoped call is about: a string field of the raw input, else null (every agent). */
function agentOf(raw: unknown, field: string): string | null {
  const value = raw && typeof raw === "object" ? (raw as Record<string, unknown>)[field] : undefined;
  return typeof value === "string" && value.length > 0 ? value : null;
}

// Runs before the input is parsed, so a refused caller learns nothing and costs nothing.
function requireScope(scope: Scope, agentInput: string | undefined) {
  return t.middleware(async ({ ctx, next, getRawInput }) => {
    if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
    const agent = agentInput ? agentOf(await getRawInput(), agentInput) : null;
    if (!actorCan(ctx.actor, scope, agent)) {
      const where = agent ? ` for agent "${agent}"` : "";
      throw new TRPCError({ code: "FORBIDDEN", message: `${ctx.actor.name} lacks the "${scope}" scope${where}` });
    }
    return next({ ctx: { ...ctx, actor: ctx.actor } });
  });
}

// Text with a NUL cannot be stored or looked up on PostgreSQL: refused on both databases, naming where it is.
const refuseNul = t.middleware(async ({ next, getRawInput }) => {
  const at = nulPath(await getRawInput());
  if (at !== null) throw badInput(at || "input", NUL_REFUSAL);
  return next();
});

// 4. PROCEDURES
export const publicProcedure = t.procedure.meta({ public: true }).use(domainErrors).use(refuseNul);

/**
 * A procedure that needs `scope`. Agent-scoped procedures name the input field that holds the agent
 * (`scopedProcedure("approval:default", { agentInput: "agent" })`): the scope is then checked for that
 * agent, so a role assigned for that agent alone is enough. Otherwise the scope must be held for every agent.
 */
export function scopedProcedure(scope: Scope, opts: { agentInput?: string } = {}) {
  return t.procedure.meta({ scope, agentInput: opts.agentInput }).use(requireScope(scope, opts.agentInput)).use(domainErrors).use(refuseNul);
}
