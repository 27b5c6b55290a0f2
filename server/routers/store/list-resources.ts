// Resources ids, most recently updated first.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { maskedPage } from "@/lib/json/secrets";
import { ZListResourcesInput } from "./list-resources.types";

export const listResourcesRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => maskedPage(await storeFor(ctx.database).queryResources({ ...input, sort_by: "update_time" })));
