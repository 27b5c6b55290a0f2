import { registryCatalog } from "@/server/policy/catalog";
import { scopedProcedure } from "@/server/trpc";
import { ZListCatalogInput, ZListCatalogOutput } from "./list-catalog.types";

export const listCatalogRoute = scopedProcedure("dashboard:read")
  .input(ZListCatalogInput)
  .output(ZListCatalogOutput)
  .query(({ ctx }) => registryCatalog(ctx.database.db));
