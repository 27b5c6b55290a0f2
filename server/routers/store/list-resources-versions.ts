// Every stored version of one resources id with its content digest, newest first (for pinning and diffs).
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { masked } from "@/lib/json/secrets";
import { ZListResourcesVersionsInput } from "./list-resources-versions.types";

export const listResourcesVersionsRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesVersionsInput)
  // Stored JSON may carry credentials (api_key, token, …): they never leave the server (lib/json/secrets.ts).
  .query(async ({ ctx, input }) => (await storeFor(ctx.database).resourcesVersions(input.resources_id)).map(masked));
