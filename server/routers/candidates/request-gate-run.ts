import { requestGateRun } from "@/server/receipts/gate-queue";
import { scopedProcedure } from "@/server/trpc";
import { ZRequestGateRunInput, ZRequestGateRunOutput } from "./request-gate-run.types";

// Queues a gate run; a worker (`runPendingGates`) runs it and seals its stage 3. Computes evidence only.
export const requestGateRunRoute = scopedProcedure("gate:run")
  .input(ZRequestGateRunInput)
  .output(ZRequestGateRunOutput)
  .mutation(({ ctx, input }) => requestGateRun(ctx.database, { candidateId: input.candidateId, actor: ctx.actor }));
