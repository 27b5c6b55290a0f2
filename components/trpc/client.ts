// The browser's tRPC client and query cache, built in one place so tests read answers exactly as the
// dashboard does (same link, transformer and cache options).
import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, loggerLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@/server/routers/_app";
import { isPublicPath, signInUrl } from "@/lib/auth/public-paths";
import { shareEqualDeep } from "@/lib/json/share";
import { wireTransformer } from "@/lib/json/wire";

// A session that ended while the page was open (expired, signed out elsewhere, deactivated): go sign in.
function onError(error: unknown) {
  if (!(error instanceof TRPCClientError) || (error.data as { code?: string } | undefined)?.code !== "UNAUTHORIZED") return;
  if (typeof window === "undefined") return;
  const { pathname, search } = window.location;
  if (!isPublicPath(pathname)) window.location.assign(signInUrl(pathname + search));
}

export function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    // shareEqualDeep: React Query's default sharing would turn a stored `__proto__` key into a prototype.
    defaultOptions: { queries: { staleTime: 2_000, refetchOnWindowFocus: true, retry: 1, structuralSharing: shareEqualDeep } },
  });
}

/** `url` is "/api/trpc" in the browser; tests pass an absolute URL and the headers a browser would send. */
export function makeTrpcClient(url = "/api/trpc", headers?: () => Record<string, string>) {
  return createTRPCClient<AppRouter>({
    links: [
      loggerLink({ enabled: (op) => process.env.NODE_ENV === "development" && op.direction === "down" && op.result instanceof Error }),
      // maxItems: the server refuses batches over 50 calls (server/trpc-http.ts).
      httpBatchLink({ url, transformer: wireTransformer, headers, maxItems: 50 }),
    ],
  });
}
