import { listSweeps } from "@/server/training/sweeps";
import { scopedProcedure } from "@/server/trpc";
import { ZListSweepsInput, ZListSweepsOutput } from "./list-sweeps.types";

export const listSweepsRoute = scopedProcedure("dashboard:read")
  .input(ZListSweepsInput)
  .output(ZListSweepsOutput)
  .query(({ ctx, input }) => listSweeps(ctx.database, input));
