/**
 * tRPC setup, in the order a request meets it.
 *
 * 1. CONTEXT — what every procedure can use: the database and the calling actor.
 * 2. INITIALISATION — transformer and error shape (zod issues flattened so the UI can name the field).
 * 3. MIDDLEWARE — authentication, then one scope check per procedure, read from lib/auth/scopes.ts.
 * 4. PROCEDURES — `publicProcedure` (health only) and `scopedProcedure(scope)` for everything else.
 *    A procedure without a scope cannot be written: the permission matrix test walks the router
 *    and fails on any procedure that was not built from `scopedProcedure`.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import type { Scope } from "@/lib/auth/scopes";
import { resolveActor, type Actor } from "./auth/actor";
import { getDatabase, type Database, type Db } from "./db/client";

// 1. CONTEXT
export type Context = { db: Db; database: Database; actor: Actor | null; headers: Headers };

export async function createContext(opts: { headers: Headers; database?: Database }): Promise<Context> {
  const database = opts.database ?? (await getDatabase());
  return { db: database.db, database, actor: await resolveActor(opts.headers, database.db), headers: opts.headers };
}

// 2. INITIALISATION
export type ProcedureMeta = { scope?: Scope; public?: true };

const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause.issues.map((i) => ({ path: i.path.join("."), message: i.message })) : null;
    return { ...shape, data: { ...shape.data, zodIssues: zod } };
  },
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

// 3. MIDDLEWARE
function requireScope(scope: Scope) {
  return t.middleware(({ ctx, next }) => {
    if (!ctx.actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
    if (!ctx.actor.scopes.has(scope)) {
      throw new TRPCError({ code: "FORBIDDEN", message: `${ctx.actor.name} lacks the "${scope}" scope` });
    }
    return next({ ctx: { ...ctx, actor: ctx.actor } });
  });
}

// 4. PROCEDURES
export const publicProcedure = t.procedure.meta({ public: true });

export function scopedProcedure(scope: Scope) {
  return t.procedure.meta({ scope }).use(requireScope(scope));
}
