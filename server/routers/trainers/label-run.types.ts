import { z } from "zod";

export const ZTag = z
  .string()
  .trim()
  .min(1, "tags must not be empty")
  .max(40, "a tag is at most 40 characters")
  .regex(/^[\p{L}\p{N} _.:/-]+$/u, "a tag holds letters, digits, spaces and _ . : / - only");

export const ZLabelRunInput = z
  .object({
    runId: z.string().min(1, "runId is required").max(100),
    name: z.string().max(120, "name must be at most 120 characters").nullable(),
    tags: z.array(ZTag).max(12, "at most 12 tags"),
  })
  .strict();

export const ZLabelRunOutput = z.object({ id: z.string(), name: z.string().nullable(), tags: z.array(z.string()) });
