// Exploration schedules: ε after u updates = end + (start − end) · decay^u.
import { z } from "zod";

export const epsilonScheduleSchema = z
  .object({
    epsilonStart: z.number().min(0, "epsilonStart must be ≥ 0").max(1, "epsilonStart must be ≤ 1"),
    epsilonEnd: z.number().min(0, "epsilonEnd must be ≥ 0").max(1, "epsilonEnd must be ≤ 1"),
    /** Per-update factor on the distance to epsilonEnd; 1 keeps ε at epsilonStart. */
    epsilonDecay: z.number().gt(0, "epsilonDecay must be > 0").max(1, "epsilonDecay must be ≤ 1"),
  })
  .strict()
  .refine((s) => s.epsilonEnd <= s.epsilonStart, { message: "epsilonEnd must not exceed epsilonStart", path: ["epsilonEnd"] });
export type EpsilonSchedule = z.output<typeof epsilonScheduleSchema>;

export function epsilonAt(s: EpsilonSchedule, updates: number): number {
  return s.epsilonEnd + (s.epsilonStart - s.epsilonEnd) * s.epsilonDecay ** updates;
}

/** Linear interpolation from `from` to `to` over `steps` updates, then held (β of prioritized replay). */
export function linearAt(from: number, to: number, steps: number, updates: number): number {
  return steps <= 0 ? to : from + (to - from) * Math.min(1, updates / steps);
}
