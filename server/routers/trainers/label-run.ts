import { labelRun, splitTags } from "@/server/training/runs";
import { scopedProcedure } from "@/server/trpc";
import { ZLabelRunInput, ZLabelRunOutput } from "./label-run.types";

export const labelRunRoute = scopedProcedure("training:run")
  .input(ZLabelRunInput)
  .output(ZLabelRunOutput)
  .mutation(async ({ ctx, input }) => {
    const run = await labelRun(ctx.database, input.runId, input, ctx.actor);
    return { id: run.id, name: run.name, tags: splitTags(run.tags) };
  });
