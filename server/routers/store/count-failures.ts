// "Failed" as both the Runners and the Rollouts page count it, from one query of the store.
import { failureCounts } from "@/server/traces/failures";
import { scopedProcedure } from "@/server/trpc";
import { ZCountFailuresInput, ZCountFailuresOutput } from "./count-failures.types";

export const countFailuresRoute = scopedProcedure("dashboard:read")
  .input(ZCountFailuresInput)
  .output(ZCountFailuresOutput)
  .query(({ ctx }) => failureCounts(ctx.database.db));
