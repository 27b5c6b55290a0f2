// One page of a resources id's versions with digests and resource names (the version picker).
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListResourcesHistoryInput } from "./list-resources-history.types";

export const listResourcesHistoryRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesHistoryInput)
  .query(({ ctx, input }) => storeFor(ctx.database).resourcesHistory(input.resources_id, input));
