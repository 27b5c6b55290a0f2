// Spans of a rollout (or one attempt, or "latest") in sequence order, one page at a time.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZQuerySpansInput } from "./query-spans.types";

export const querySpansRoute = scopedProcedure("dashboard:read")
  .input(ZQuerySpansInput)
  .query(({ ctx, input }) => storeFor(ctx.database).querySpans(input));
