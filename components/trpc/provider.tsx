"use client";

// Client side of tRPC: one QueryClient per browser tab, the typed options proxy via context.
import { useState, type ReactNode } from "react";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, loggerLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { TRPCProvider } from "./react";
import type { AppRouter } from "@/server/routers/_app";
import { isPublicPath, signInUrl } from "@/lib/auth/public-paths";

// A session that ended while the page was open (expired, signed out elsewhere, deactivated): go sign in.
function onError(error: unknown) {
  if (!(error instanceof TRPCClientError) || (error.data as { code?: string } | undefined)?.code !== "UNAUTHORIZED") return;
  const { pathname, search } = window.location;
  if (!isPublicPath(pathname)) window.location.assign(signInUrl(pathname + search));
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: { queries: { staleTime: 2_000, refetchOnWindowFocus: true, retry: 1 } },
  });
}

export function TrpcQueryProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        loggerLink({ enabled: (op) => process.env.NODE_ENV === "development" && op.direction === "down" && op.result instanceof Error }),
        httpBatchLink({ url: "/api/trpc", transformer: superjson }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
