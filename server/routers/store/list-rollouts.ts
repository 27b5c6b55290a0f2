// Rollouts for the dashboard: server-side pagination, filters by status and mode, newest first; each with its latest attempt.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListRolloutsInput } from "./list-rollouts.types";
import { maskedPage } from "@/lib/json/secrets";

export const listRolloutsRoute = scopedProcedure("dashboard:read")
  .input(ZListRolloutsInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => maskedPage(await storeFor(ctx.database).queryRollouts(input)));
