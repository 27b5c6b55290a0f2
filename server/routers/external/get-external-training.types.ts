import { z } from "zod";
import { idString } from "@/server/store/http/schemas";

/** The id is caller-given (any text the store accepted as a resources id): bounded as the store bounds it. */
export const ZGetExternalTrainingInput = z.object({ resourcesId: idString }).strict();

const ZCompared = z.object({ value: z.number().nullable(), previous: z.number().nullable(), delta: z.number().nullable() });
const FIGURES = ["trainReward", "valReward", "rollouts", "failureRate", "retryRate", "coverage", "retryDebt", "throughput"] as const;

export const ZExternalVersion = z.object({
  version: z.number().int(),
  createdAt: z.number(),
  until: z.number().nullable(),
  trainRollouts: z.number().int(),
  trainRewarded: z.number().int(),
  valRollouts: z.number().int(),
  valRewarded: z.number().int(),
  finished: z.number().int(),
  failed: z.number().int(),
  retried: z.number().int(),
  coverageConsidered: z.number().int(),
  figures: z.object(Object.fromEntries(FIGURES.map((f) => [f, ZCompared])) as Record<(typeof FIGURES)[number], typeof ZCompared>),
});

export const ZGetExternalTrainingOutput = z.object({
  resourcesId: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  rollouts: z.number().int(),
  versions: z.array(ZExternalVersion),
  olderVersions: z.number().int(),
  overTime: z.object({
    bucketSeconds: z.number(),
    points: z.array(z.object({ at: z.number(), mode: z.enum(["train", "val"]), rollouts: z.number().int(), rewarded: z.number().int(), meanReward: z.number().nullable() })),
  }),
  runners: z.array(
    z.object({
      workerId: z.string(),
      status: z.string(),
      attempts: z.number().int(),
      failedAttempts: z.number().int(),
      lastAttemptAt: z.number(),
      lastHeartbeatAt: z.number().nullable(),
      currentRolloutId: z.string().nullable(),
    }),
  ),
  pendingRollups: z.number().int(),
  trials: z.number().int(),
  now: z.number(),
});
