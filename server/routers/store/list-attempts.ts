// A rollout's attempts with the reason each started (first, expected resample, retry after …, manual).
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListAttemptsInput } from "./list-attempts.types";
import { maskedPage } from "@/lib/json/secrets";

export const listAttemptsRoute = scopedProcedure("dashboard:read")
  .input(ZListAttemptsInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => maskedPage(await storeFor(ctx.database).queryAttempts(input.rollout_id, { ...input, sort_by: "sequence_id" })));
