// Shapes the registries pages read, inferred from the tRPC router (components never import server code).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/_app";

type Outputs = inferRouterOutputs<AppRouter>;
export type TPreviewPublishOutput = Outputs["registries"]["previewPublish"];
export type TPreviewDatasetOutput = Outputs["registries"]["previewDataset"];
export type TAreaEntry = Outputs["registries"]["entry"];
