import { getExternalTraining } from "@/server/training/external";
import { scopedProcedure } from "@/server/trpc";
import { ZGetExternalTrainingInput, ZGetExternalTrainingOutput } from "./get-external-training.types";

export const getExternalTrainingRoute = scopedProcedure("dashboard:read")
  .input(ZGetExternalTrainingInput)
  .output(ZGetExternalTrainingOutput)
  .query(({ ctx, input }) => getExternalTraining(ctx.database, input.resourcesId));
