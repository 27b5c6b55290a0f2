"use client";

import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@/server/routers/_app";

/** `const trpc = useTRPC(); useQuery(trpc.system.status.queryOptions())` */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();
