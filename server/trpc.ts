/**
 * tRPC setup, in the order a request meets it.
 *
 * 1. CONTEXT — what every procedure can use: the database and the calling actor.
 * 2. INITIALISATION — wire transformer (lib/json/wire.ts) and error shape (a refusal is one sentence naming the
 *    field; the zod issues stay beside it so the UI can mark the field).
 * 3. MIDDLEWARE — domain errors become their tRPC code; authentication, then one scope check per
 *    procedure (lib/auth/scopes.ts), for the agent named in the input when the procedure is agent-scoped.
 * 4. PROCEDURES — `publicProcedure` (health, `me`, first-run setup) and `scopedProcedure(scope)` for
 *    everything else.
 *    A procedure without a scope cannot be written: the permission matrix test walks the router
 *    and fails on any procedure that was not built from `scopedProcedure`.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import { wireTransformer } from "@/lib/json/wire";
import { fieldIssues, issuesSentence } from "@/lib/validation/sentence";
import { actorCan, resolveActor, type Actor } from "./auth/actor";
import { apiKeyOf, authenticateApiKey } from "./auth/api-keys";
import { markRefusalRecorded } from "./audit/refusal-log";
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
  // JSON plus Dates (lib/json/wire.ts): stored user JSON may have any key, which superjson refuses.
  transformer: wireTransformer,
  // Refused input reads as one sentence naming the field (`limit: must be at most 500`), not zod's JSON dump;
  // the issues stay in `data.zodIssues` and the first field in `data.field` for forms that mark the field.
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? fieldIssues(error.cause.issues) : null;
    const field = error.cause instanceof DomainError ? (error.cause.field ?? null) : (zod?.[0]?.path ?? null);
    // An internal error's text (a Prisma or SQL message) is for the server log, never the caller.
    const message = zod ? issuesSentence(zod) : error.code === "INTERNAL_SERVER_ERROR" ? "internal error: the server could not answer this call (it is logged)" : shape.message;
    const data = { ...shape.data, stack: undefined, zodIssues: zod, field };
    return { ...shape, message, data };
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

/** Told when a signed-in caller lacks the scope (decisions record such attempts); must not throw. */
export type ScopeRefusalHook = (refusal: { database: Database; actor: Actor; rawInput: unknown; error: DomainError }) => Promise<void>;

// Runs before the input is parsed, so a refused caller learns nothing and costs nothing.
function requireScope(scope: Scope, agentInput: string | undefined, onRefused: ScopeRefusalHook | undefined) {
  return t.middleware(async ({ ctx, next, getRawInput }) => {
    if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
    const agent = agentInput ? agentOf(await getRawInput(), agentInput) : null;
    if (!actorCan(ctx.actor, scope, agent)) {
      const where = agent ? ` for agent "${agent}"` : "";
      const message = `${ctx.actor.name} lacks the "${scope}" scope${where}`;
      const refusal = new TRPCError({ code: "FORBIDDEN", message });
      if (!onRefused) throw refusal;
      await onRefused({ database: ctx.database, actor: ctx.actor, rawInput: await getRawInput(), error: new DomainError("FORBIDDEN", message) });
      throw markRefusalRecorded(refusal); // the edge's refusal log (server/trpc-http.ts) must not count it again
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
export function scopedProcedure(scope: Scope, opts: { agentInput?: string; onRefused?: ScopeRefusalHook } = {}) {
  return t.procedure.meta({ scope, agentInput: opts.agentInput }).use(requireScope(scope, opts.agentInput, opts.onRefused)).use(domainErrors).use(refuseNul);
}
