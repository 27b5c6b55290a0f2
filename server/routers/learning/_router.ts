import { createTRPCRouter } from "@/server/trpc";
import { checkFamilyConfigRoute } from "./check-family-config";
import { listFamiliesRoute } from "./list-families";

export const learningRouter = createTRPCRouter({ listFamilies: listFamiliesRoute, checkFamilyConfig: checkFamilyConfigRoute });
