import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/routers/_app";
import { createContext } from "@/server/trpc";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ headers: req.headers }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`trpc ${path ?? "?"}:`, error.cause ?? error);
    },
  });
}

// tRPC answers every method itself, in its own error shape (405 METHOD_NOT_SUPPORTED for PUT and the like).
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
