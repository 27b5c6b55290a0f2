// Runners (workers) with status, current rollout/attempt and heartbeat stats.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListWorkersInput } from "./list-workers.types";

export const listWorkersRoute = scopedProcedure("dashboard:read")
  .input(ZListWorkersInput)
  .query(({ ctx, input }) => storeFor(ctx.database).queryWorkers({ ...input, sort_by: "worker_id" }));
