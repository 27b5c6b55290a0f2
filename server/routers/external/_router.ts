// External trainings: Agent Lightning trainings watched from the store alone (server/training/external/). Read only.
import { createTRPCRouter } from "@/server/trpc";
import { getExternalTrainingRoute } from "./get-external-training";
import { listExternalTrainingsRoute } from "./list-external-trainings";

export const externalRouter = createTRPCRouter({ listTrainings: listExternalTrainingsRoute, getTraining: getExternalTrainingRoute });
