import { storeFor } from "@/server/store";
import { startRun } from "@/server/training/runs";
import { scopedProcedure } from "@/server/trpc";
import { ZStartRunInput, ZStartRunOutput } from "./start-run.types";

export const startRunRoute = scopedProcedure("training:run", { agentInput: "agent" })
  .input(ZStartRunInput)
  .output(ZStartRunOutput)
  .mutation(async ({ ctx, input }) => {
    const run = await startRun(ctx.database, storeFor(ctx.database), input, ctx.actor);
    return { id: run.id, status: run.status };
  });
