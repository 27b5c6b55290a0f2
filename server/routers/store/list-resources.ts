// Resources ids, most recently updated first.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListResourcesInput } from "./list-resources.types";

export const listResourcesRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesInput)
  .query(({ ctx, input }) => storeFor(ctx.database).queryResources({ ...input, sort_by: "update_time" }));
