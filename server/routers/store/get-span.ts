// One span in full (attributes, events, links, resource), or null.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZGetSpanInput } from "./get-span.types";
import { masked } from "@/lib/json/secrets";

export const getSpanRoute = scopedProcedure("dashboard:read")
  .input(ZGetSpanInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => masked(await storeFor(ctx.database).getSpan(input.rollout_id, input.attempt_id, input.span_id)));
