import { z } from "zod";

export const ZListExternalTrainingsInput = z
  .object({
    search: z.string().trim().max(120).optional(),
    /** Lineages (two versions or more) or the one-off ids (a single version: trials an algorithm published once). */
    kind: z.enum(["lineages", "one-off"]).default("lineages"),
    limit: z.number().int().min(1).max(100).default(25),
    offset: z.number().int().min(0).max(1_000_000).default(0),
  })
  .strict()
  .default({ kind: "lineages", limit: 25, offset: 0 });

export const ZExternalTrainingSummary = z.object({
  resourcesId: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  versions: z.number().int(),
  rollouts: z.number().int(),
  latest: z.object({ version: z.number().int(), trainReward: z.number().nullable(), valReward: z.number().nullable(), rollouts: z.number().int(), failureRate: z.number().nullable() }),
  lastActivity: z.number().nullable(),
});

export const ZListExternalTrainingsOutput = z.object({
  items: z.array(ZExternalTrainingSummary),
  total: z.number().int(),
  /** How many ids of the other kind match the same search (what the folded line offers). */
  otherKind: z.number().int(),
});
