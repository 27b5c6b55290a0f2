// A rollout's spans without their bodies (ids, parent, name, times, status), for the tree and waterfall.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZQuerySpanOutlineInput } from "./query-span-outline.types";

export const querySpanOutlineRoute = scopedProcedure("dashboard:read")
  .input(ZQuerySpanOutlineInput)
  .query(({ ctx, input }) => storeFor(ctx.database).spanOutline(input));
