import { z } from "zod";
import { DATASET_KINDS, ZPublishDataset } from "@/server/gate-api/datasets.schema";

export const ZPublishDatasetInput = ZPublishDataset;
export const ZPublishDatasetOutput = z.object({ datasetId: z.string(), digest: z.string(), caseCount: z.number().int(), kind: z.enum(DATASET_KINDS), name: z.string(), created: z.boolean() });
