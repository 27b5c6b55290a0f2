// Rollouts for the dashboard: server-side pagination, filters by status and mode, newest first; each with its latest attempt.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListRolloutsInput } from "./list-rollouts.types";

export const listRolloutsRoute = scopedProcedure("dashboard:read")
  .input(ZListRolloutsInput)
  .query(({ ctx, input }) => storeFor(ctx.database).queryRollouts(input));
