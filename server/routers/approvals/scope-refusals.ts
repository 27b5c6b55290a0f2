import type { ScopeRefusalHook } from "@/server/trpc";
import { recordRefusal, type RefusalContext } from "@/server/approvals/refusal-audit";

// A signed-in caller without the decision's scope is refused before the domain runs; the attempt is
// recorded like every other refused decision (server/approvals/refusal-audit.ts).
export const recordScopeRefusal =
  (contextOf: (rawInput: unknown) => RefusalContext): ScopeRefusalHook =>
  ({ database, actor, rawInput, error }) =>
    recordRefusal(database, actor, contextOf(rawInput), error);
