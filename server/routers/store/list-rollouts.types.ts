import { z } from "zod";
import { ROLLOUT_MODES, ROLLOUT_STATUSES } from "@/server/store/types";
import { ZPage } from "./page.types";

export const ZListRolloutsInput = z.object({
  ...ZPage,
  status_in: z.array(z.enum(ROLLOUT_STATUSES)).optional(),
  mode_in: z.array(z.enum(ROLLOUT_MODES).nullable()).optional(),
  rollout_id_contains: z.string().max(200).optional(),
  rollout_id_in: z.array(z.string().min(1).max(512)).max(100).optional(),
  sort_by: z.enum(["start_time", "end_time", "rollout_id", "status", "mode"]).default("start_time"),
  /** The latest attempt's final reward within [reward_min, reward_max] (a rollout without a reward never matches). */
  reward_min: z.number().finite().optional(),
  reward_max: z.number().finite().optional(),
  /** Only rollouts whose latest attempt failed / timed out / went unresponsive or has ERROR spans (true), or none of that (false). */
  has_error: z.boolean().optional(),
}).refine((q) => q.reward_min === undefined || q.reward_max === undefined || q.reward_min <= q.reward_max, { path: ["reward_max"], message: "must be at least reward_min" });
