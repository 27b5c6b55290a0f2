// The tRPC endpoint over HTTP (app/api/trpc): tRPC's fetch adapter, with cross-site and non-JSON
// requests refused (server/auth/cross-site.ts) before any procedure runs. Refusals that are decisions
// (server/http/edge-refusals.ts) are recorded before the answer leaves.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { trpcRequestRefusal } from "./auth/cross-site";
import { isRefusalRecorded } from "./audit/refusal-log";
import { getDatabase, type Database } from "./db/client";
import { recordEdgeRefusal } from "./http/edge-refusals";
import { appRouter } from "./routers/_app";
import { createContext, type Context } from "./trpc";

/** `context` replaces how the context is made (tests mount the endpoint on their own databases). */
/** Calls per batched request; components/trpc/client.ts splits larger batches. */
export const TRPC_MAX_BATCH = 50;

const PROCEDURES: Readonly<Record<string, unknown>> = appRouter._def.procedures;

/**
 * The procedure as the route of a refusal: a real one by name, anything else as one name (keys stay few). tRPC
 * names no path when it refused the request before reading them (its own content-type check): then the URL's.
 */
function routeOf(path: string | undefined, url: string): string {
  const named = path ?? decodeURIComponentSafe(new URL(url).pathname.replace(/^\/api\/trpc\/?/, ""));
  if (named.includes(",")) return "trpc (batch)";
  return Object.hasOwn(PROCEDURES, named) ? `trpc ${named}` : "trpc (no such procedure)";
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export async function handleTrpcRequest(req: Request, opts: { database?: Database; context?: (headers: Headers) => Promise<Context> } = {}): Promise<Response> {
  let edge: ReturnType<typeof trpcRequestRefusal> = null;
  const recording: Promise<void>[] = [];
  const response = await fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    // The dashboard batches a page's queries (the client splits at the same size); a 250-call batch is abuse.
    maxBatchSize: TRPC_MAX_BATCH,
    createContext: () => {
      edge = trpcRequestRefusal(req);
      if (edge) throw new TRPCError(edge);
      return opts.context ? opts.context(req.headers) : createContext({ headers: req.headers, database: opts.database });
    },
    onError({ error, path, ctx }) {
      if (error.code === "INTERNAL_SERVER_ERROR") return void console.error(`trpc ${path ?? "?"}:`, error.cause ?? error);
      if (isRefusalRecorded(error) || isRefusalRecorded(error.cause)) return;
      const reason = edge?.code === "FORBIDDEN" ? "cross_site" : error.code.toLowerCase();
      const answer = { route: routeOf(path, req.url), status: getHTTPStatusCodeFromError(error), reason, message: error.message };
      const database = ctx?.database ? Promise.resolve(ctx.database) : opts.database ? Promise.resolve(opts.database) : getDatabase();
      recording.push(
        database.then(
          (db) => recordEdgeRefusal(db, req, ctx?.actor ?? null, answer),
          (e: unknown) => console.error(`audit: no database to record a refused ${answer.route}:`, (e as Error)?.message ?? e),
        ),
      );
    },
  });
  await Promise.all(recording);
  return response;
}
