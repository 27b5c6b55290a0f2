"use client";

// Client side of tRPC: one QueryClient per browser tab, the typed options proxy via context.
import { useState, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { TRPCProvider } from "./react";
import { makeQueryClient, makeTrpcClient } from "./client";

export function TrpcQueryProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() => makeTrpcClient());
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
