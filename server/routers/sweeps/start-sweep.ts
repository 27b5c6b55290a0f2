import { storeFor } from "@/server/store";
import { startSweep } from "@/server/training/sweeps";
import { scopedProcedure } from "@/server/trpc";
import { ZStartSweepInput, ZStartSweepOutput } from "./start-sweep.types";

export const startSweepRoute = scopedProcedure("training:run", { agentInput: "agent" })
  .input(ZStartSweepInput)
  .output(ZStartSweepOutput)
  .mutation(({ ctx, input }) => startSweep(ctx.database, storeFor(ctx.database), input, ctx.actor));
