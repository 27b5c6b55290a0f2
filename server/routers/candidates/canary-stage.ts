import { canaryStageLive } from "@/server/receipts/gate-run/canary-live";
import { scopedProcedure } from "@/server/trpc";
import { ZCanaryStageInput, ZCanaryStageOutput } from "./canary-stage.types";

// The canary stage's live panel: polled while the stage runs.
export const canaryStageRoute = scopedProcedure("dashboard:read")
  .input(ZCanaryStageInput)
  .output(ZCanaryStageOutput)
  .query(({ ctx, input }) => canaryStageLive(ctx.database, input.candidateId));
