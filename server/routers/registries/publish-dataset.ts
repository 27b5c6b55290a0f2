import { publishDataset } from "@/server/gate-api/datasets";
import { scopedProcedure } from "@/server/trpc";
import { ZPublishDatasetInput, ZPublishDatasetOutput } from "./publish-dataset.types";

// The function POST /v1/gate/datasets calls, with the same scope (policy:write for every agent).
export const publishDatasetRoute = scopedProcedure("policy:write")
  .input(ZPublishDatasetInput)
  .output(ZPublishDatasetOutput)
  .mutation(async ({ ctx, input }) => {
    const { dataset, created } = await publishDataset(ctx.database, ctx.actor, input);
    return { datasetId: dataset.id, digest: dataset.digest, caseCount: dataset.caseCount, kind: dataset.kind, name: dataset.name, created };
  });
