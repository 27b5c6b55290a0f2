// Key diff between two versions of a resources id; secret-like values (api_key, token, …) are masked here,
// so they never reach the browser.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZDiffResourcesInput } from "./diff-resources.types";

export const diffResourcesRoute = scopedProcedure("dashboard:read")
  .input(ZDiffResourcesInput)
  .query(({ ctx, input }) => storeFor(ctx.database).diffResources(input.resources_id, input.from_version, input.to_version));
