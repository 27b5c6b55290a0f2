// Every stored version of one resources id with its content digest, newest first (for pinning and diffs).
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZListResourcesVersionsInput } from "./list-resources-versions.types";

export const listResourcesVersionsRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesVersionsInput)
  .query(({ ctx, input }) => storeFor(ctx.database).resourcesVersions(input.resources_id));
