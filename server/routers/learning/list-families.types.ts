import { z } from "zod";

export const ZFamilyInfo = z.object({
  name: z.string(),
  description: z.string(),
  resourceKind: z.enum(["policy", "prompt-template", "task-clusters"]),
  parentKind: z.string(),
  reads: z.array(z.string()),
  defaults: z.unknown(),
  required: z.array(z.string()),
});
export const ZListFamiliesOutput = z.array(ZFamilyInfo);
