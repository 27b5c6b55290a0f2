import { listFamilies } from "@/server/trainers/families";
import { scopedProcedure } from "@/server/trpc";
import { ZListFamiliesOutput } from "./list-families.types";

export const listFamiliesRoute = scopedProcedure("dashboard:read")
  .output(ZListFamiliesOutput)
  .query(() => listFamilies());
