// Rollouts for the dashboard: server-side pagination, filters by status, mode, reward range and error, newest
// first; each with its latest attempt, that attempt's final reward and its error.
import { scopedProcedure } from "@/server/trpc";
import { queryRolloutsWithEvidence } from "@/server/traces/rollout-evidence";
import { ZListRolloutsInput } from "./list-rollouts.types";
import { maskedPage } from "@/lib/json/secrets";

export const listRolloutsRoute = scopedProcedure("dashboard:read")
  .input(ZListRolloutsInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => maskedPage(await queryRolloutsWithEvidence(ctx.database, input)));
