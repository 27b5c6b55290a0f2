"use client";

// Who is signed in, for the UI: the `me` query, seeded by the server layout so nothing flickers.
// useCan mirrors the server's check with the same table (lib/auth/scopes.ts); it only hides what the
// server would refuse anyway.
import { createContext, useContext, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { grantsAllow, grantsAllowSomeAgent, type Scope } from "@/lib/auth/scopes";
import type { TMeResponse } from "@/server/routers/auth/me.types";

const MeContext = createContext<TMeResponse>(null);

export function MeProvider({ initial, children }: { initial: TMeResponse; children: ReactNode }) {
  const trpc = useTRPC();
  const { data } = useQuery(trpc.auth.me.queryOptions(undefined, { initialData: initial, staleTime: 30_000 }));
  return <MeContext.Provider value={data ?? null}>{children}</MeContext.Provider>;
}

export function useMe(): TMeResponse {
  return useContext(MeContext);
}

/** May the signed-in person use `scope` (for `agent`, or instance-wide)? Same rule as the server. */
export function useCan(scope: Scope, agent?: string | null): boolean {
  const me = useMe();
  return me ? grantsAllow(me.grants, scope, agent) : false;
}

/** May the signed-in person use `scope` for at least one agent (a form that lets them name it)? */
export function useCanForSomeAgent(scope: Scope): boolean {
  const me = useMe();
  return me ? grantsAllowSomeAgent(me.grants, scope) : false;
}
