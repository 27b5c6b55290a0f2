// A rollout's attempts with the reason each started (first, expected resample, retry after …, manual).
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListAttemptsInput } from "./list-attempts.types";

export const listAttemptsRoute = scopedProcedure("dashboard:read")
  .input(ZListAttemptsInput)
  .query(({ ctx, input }) => storeFor(ctx.database).queryAttempts(input.rollout_id, { ...input, sort_by: "sequence_id" }));
