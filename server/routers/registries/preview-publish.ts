import { registryImpact } from "@/server/policy/impact";
import { scopedProcedure } from "@/server/trpc";
import { ZPreviewPublishInput, ZPreviewPublishOutput } from "./preview-publish.types";

// Who may publish may preview: the same scope for the same agent (it judges every candidate it would touch).
export const previewPublishRoute = scopedProcedure("policy:write", { agentInput: "agent" })
  .input(ZPreviewPublishInput)
  .output(ZPreviewPublishOutput)
  .mutation(({ ctx, input }) => registryImpact(ctx.database, input));
