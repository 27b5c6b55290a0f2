// One rollout's trace at a glance: reward, tokens, cost, spans and errors per attempt.
import { traceSummary } from "@/server/traces/summary";
import { scopedProcedure } from "@/server/trpc";
import { ZGetTraceSummaryInput, ZGetTraceSummaryOutput } from "./get-trace-summary.types";

export const getTraceSummaryRoute = scopedProcedure("dashboard:read")
  .input(ZGetTraceSummaryInput)
  .output(ZGetTraceSummaryOutput)
  .query(({ ctx, input }) => traceSummary(ctx.database.db, input.rollout_id));
