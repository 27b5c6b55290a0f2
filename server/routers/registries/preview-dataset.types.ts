import { z } from "zod";
import { DATASET_KINDS, ZPublishDataset } from "@/server/gate-api/datasets.schema";

/** The body of `POST /v1/gate/datasets`, as the HTTP API validates it. */
export const ZPreviewDatasetInput = ZPublishDataset;
export const ZPreviewDatasetOutput = z.object({
  kind: z.enum(DATASET_KINDS),
  name: z.string(),
  datasetId: z.string(),
  digest: z.string(),
  caseCount: z.number().int(),
  existingVersion: z.string().nullable(),
  version: z.string(),
  supersedes: z.object({ version: z.string(), datasetId: z.string(), caseCount: z.number().int() }).nullable(),
  added: z.number().int(),
  removed: z.number().int(),
  pinnedBy: z.array(z.object({ candidateId: z.string(), title: z.string(), label: z.string().nullable(), version: z.string() })),
  scannedAll: z.boolean(),
});
