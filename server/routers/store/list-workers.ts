// Runners (workers) with status, current rollout/attempt and heartbeat stats.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListWorkersInput } from "./list-workers.types";
import { maskedPage } from "@/lib/json/secrets";

export const listWorkersRoute = scopedProcedure("dashboard:read")
  .input(ZListWorkersInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => maskedPage(await storeFor(ctx.database).queryWorkers({ ...input, sort_by: "worker_id" })));
