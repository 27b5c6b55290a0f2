// Every stored version of one resources id with its content digest, newest first (for pinning and diffs).
import { scopedProcedure } from "@/server/trpc";
import { storeFor, type NamedResources } from "@/server/store";
import { maskSecrets } from "@/lib/json/secrets";
import { ZListResourcesVersionsInput } from "./list-resources-versions.types";

export const listResourcesVersionsRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesVersionsInput)
  // Secrets (api_key and the like) never leave the server: the dashboard shows them masked.
  .query(async ({ ctx, input }) =>
    (await storeFor(ctx.database).resourcesVersions(input.resources_id)).map((v) => ({ ...v, resources: maskSecrets(v.resources) as NamedResources })),
  );
