// The tRPC endpoint over HTTP (app/api/trpc): tRPC's fetch adapter, with cross-site and non-JSON
// requests refused (server/auth/cross-site.ts) before any procedure runs.
import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { trpcRequestRefusal } from "./auth/cross-site";
import type { Database } from "./db/client";
import { appRouter } from "./routers/_app";
import { createContext, type Context } from "./trpc";

/** `context` replaces how the context is made (tests mount the endpoint on their own databases). */
/** Calls per batched request; components/trpc/client.ts splits larger batches. */
export const TRPC_MAX_BATCH = 50;

export function handleTrpcRequest(req: Request, opts: { database?: Database; context?: (headers: Headers) => Promise<Context> } = {}): Promise<Response> {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    // The dashboard batches a page's queries (the client splits at the same size); a 250-call batch is abuse.
    maxBatchSize: TRPC_MAX_BATCH,
    createContext: () => {
      const refusal = trpcRequestRefusal(req);
      if (refusal) throw new TRPCError(refusal);
      return opts.context ? opts.context(req.headers) : createContext({ headers: req.headers, database: opts.database });
    },
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`trpc ${path ?? "?"}:`, error.cause ?? error);
    },
  });
}
