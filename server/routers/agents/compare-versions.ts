import { compareCandidates } from "@/server/receipts/compare-candidates";
import { scopedProcedure } from "@/server/trpc";
import { ZCompareVersionsInput, ZCompareVersionsOutput } from "./compare-versions.types";

// Two versions of one agent side by side; an id of another agent is refused as not found.
export const compareVersionsRoute = scopedProcedure("dashboard:read")
  .input(ZCompareVersionsInput)
  .output(ZCompareVersionsOutput)
  .query(({ ctx, input }) => compareCandidates(ctx.database, input));
