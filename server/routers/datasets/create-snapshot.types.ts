import { z } from "zod";
import { pipelineStepSchema } from "@/server/datasets/pipeline";

export const SNAPSHOT_NAME = /^[a-z0-9][a-z0-9/_.-]{0,119}$/;
export const ZCreateSnapshotInput = z
  .object({
    name: z.string().regex(SNAPSHOT_NAME, "lowercase letters, digits and / _ . - (at most 120), starting with a letter or digit"),
    from: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("snapshot"), id: z.string().min(1).max(64) }).strict(),
      z.object({ kind: z.literal("records"), records: z.array(z.unknown()).min(1, "give at least one record").max(10_000) }).strict(),
    ]),
    steps: z.array(pipelineStepSchema).max(8).default([]),
  })
  .strict();
export const ZCreateSnapshotOutput = z.object({
  id: z.string(),
  digest: z.string(),
  version: z.number().int(),
  created: z.boolean(),
  records: z.number().int(),
  pipeline: z.array(z.object({ step: z.string(), in: z.number().int(), out: z.number().int() }).passthrough()),
});
