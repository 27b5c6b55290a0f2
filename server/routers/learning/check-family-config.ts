import { familyConfigProblems } from "@/server/trainers/families";
import { scopedProcedure } from "@/server/trpc";
import { ZCheckFamilyConfigInput, ZCheckFamilyConfigOutput } from "./check-family-config.types";

export const checkFamilyConfigRoute = scopedProcedure("dashboard:read")
  .input(ZCheckFamilyConfigInput)
  .output(ZCheckFamilyConfigOutput)
  .query(({ input }) => ({ problems: familyConfigProblems(input.family, input.config) }));
