import { z } from "zod";

export const ZDiffResourcesInput = z.object({
  resources_id: z.string().min(1).max(512),
  from_version: z.number().int().min(1),
  to_version: z.number().int().min(1),
});
