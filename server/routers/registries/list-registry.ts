import { listRegistryView } from "@/server/receipts/registries";
import { scopedProcedure } from "@/server/trpc";
import { ZListRegistryInput, ZListRegistryOutput } from "./list-registry.types";

export const listRegistryRoute = scopedProcedure("dashboard:read")
  .input(ZListRegistryInput)
  .output(ZListRegistryOutput)
  .query(({ ctx, input }) => listRegistryView(ctx.database.db, input));
