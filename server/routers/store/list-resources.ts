// Resources ids, most recently updated first.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { maskSecrets } from "@/lib/json/secrets";
import type { NamedResources } from "@/server/store";
import { ZListResourcesInput } from "./list-resources.types";

export const listResourcesRoute = scopedProcedure("dashboard:read")
  .input(ZListResourcesInput)
  // Secrets (api_key and the like) never leave the server: the dashboard shows them masked.
  .query(async ({ ctx, input }) => {
    const page = await storeFor(ctx.database).queryResources({ ...input, sort_by: "update_time" });
    return { ...page, items: page.items.map((r) => ({ ...r, resources: maskSecrets(r.resources) as NamedResources })) };
  });
