// Spans of a rollout (or one attempt, or "latest") in sequence order, one page at a time.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZQuerySpansInput } from "./query-spans.types";
import { maskedPage } from "@/lib/json/secrets";

export const querySpansRoute = scopedProcedure("dashboard:read")
  .input(ZQuerySpansInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => maskedPage(await storeFor(ctx.database).querySpans(input)));
