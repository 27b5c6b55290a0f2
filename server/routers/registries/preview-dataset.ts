import { datasetImpact } from "@/server/policy/dataset-impact";
import { scopedProcedure } from "@/server/trpc";
import { ZPreviewDatasetInput, ZPreviewDatasetOutput } from "./preview-dataset.types";

// Exams are instance-wide (as POST /v1/gate/datasets: policy:write for every agent).
export const previewDatasetRoute = scopedProcedure("policy:write")
  .input(ZPreviewDatasetInput)
  .output(ZPreviewDatasetOutput)
  .mutation(({ ctx, input }) => datasetImpact(ctx.database, input));
