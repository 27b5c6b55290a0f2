// One version of a resources id with secret-like values masked on the server, or null.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZGetResourcesVersionInput } from "./get-resources-version.types";

export const getResourcesVersionRoute = scopedProcedure("dashboard:read")
  .input(ZGetResourcesVersionInput)
  .query(({ ctx, input }) => storeFor(ctx.database).maskedResourcesVersion(input.resources_id, input.version));
