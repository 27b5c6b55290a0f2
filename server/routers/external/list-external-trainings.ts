import { listExternalTrainings } from "@/server/training/external";
import { scopedProcedure } from "@/server/trpc";
import { ZListExternalTrainingsInput, ZListExternalTrainingsOutput } from "./list-external-trainings.types";

export const listExternalTrainingsRoute = scopedProcedure("dashboard:read")
  .input(ZListExternalTrainingsInput)
  .output(ZListExternalTrainingsOutput)
  .query(({ ctx, input }) => listExternalTrainings(ctx.database, input));
