import { getSweep } from "@/server/training/sweeps";
import { scopedProcedure } from "@/server/trpc";
import { ZGetSweepInput, ZGetSweepOutput } from "./get-sweep.types";

export const getSweepRoute = scopedProcedure("dashboard:read")
  .input(ZGetSweepInput)
  .output(ZGetSweepOutput)
  .query(({ ctx, input }) => getSweep(ctx.database, input.id));
