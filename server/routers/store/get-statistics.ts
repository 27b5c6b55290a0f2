// Store totals and rollouts by status.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZGetStatisticsInput } from "./get-statistics.types";

export const getStatisticsRoute = scopedProcedure("dashboard:read")
  .input(ZGetStatisticsInput)
  .query(({ ctx }) => storeFor(ctx.database).statistics());
