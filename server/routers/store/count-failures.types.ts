import { z } from "zod";

export const ZCountFailuresInput = z.object({}).strict().optional();
export const ZCountFailuresOutput = z.object({
  rolloutsFailed: z.number().int(),
  attemptsFailed: z.object({ failed: z.number().int(), timeout: z.number().int(), unresponsive: z.number().int() }),
  rolloutsRecovered: z.number().int(),
  byWorker: z.array(z.object({ workerId: z.string(), failed: z.number().int(), total: z.number().int() })),
});
