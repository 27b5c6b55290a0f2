import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { withBodyLimit } from "@/server/http/web-body";
import { appRouter } from "@/server/routers/_app";
import { createContext } from "@/server/trpc";

export const dynamic = "force-dynamic";

// Bodies are held to the tRPC limit (server/http/body-limits.ts) before tRPC reads them.
const handler = withBodyLimit("trpc", (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ headers: req.headers }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`trpc ${path ?? "?"}:`, error.cause ?? error);
    },
  }),
);

export { handler as GET, handler as POST };
