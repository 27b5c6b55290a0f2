import { z } from "zod";

export const ZFamilyInfo = z.object({
  name: z.string(),
  description: z.string(),
  resourceKind: z.enum(["policy", "prompt-template", "task-clusters"]),
  parentKind: z.string(),
  reads: z.array(z.string()),
  defaults: z.unknown(),
  required: z.array(z.string()),
  /** Each option's type, bounds, choices and description (the form's hints). */
  fields: z.record(
    z.string(),
    z.object({
      type: z.enum(["integer", "number", "string", "boolean", "object", "other"]),
      minimum: z.number().optional(),
      maximum: z.number().optional(),
      exclusiveMinimum: z.number().optional(),
      exclusiveMaximum: z.number().optional(),
      choices: z.array(z.string()).optional(),
      description: z.string().optional(),
    }),
  ),
});
export const ZListFamiliesOutput = z.array(ZFamilyInfo);
