// One span in full (attributes, events, links, resource), or null.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZGetSpanInput } from "./get-span.types";

export const getSpanRoute = scopedProcedure("dashboard:read")
  .input(ZGetSpanInput)
  .query(({ ctx, input }) => storeFor(ctx.database).getSpan(input.rollout_id, input.attempt_id, input.span_id));
