// Resources ids with version, times, digest and resource names; no bodies, so no keys reach the browser.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListResourcesSummariesInput } from "./list-resources-summaries.types";

export const listResourcesSummariesRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesSummariesInput)
  .query(({ ctx, input }) => storeFor(ctx.database).resourcesSummaries(input));
