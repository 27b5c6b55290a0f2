// The optional body of `POST /v1/gate/receipts/{receipt_id}/gate-runs`: how long each phase of the run waits
// for runners (and for verifiers) before what has not come back is judged unavailable.
import { z } from "zod";
import { MAX_DEADLINE_SECONDS, MIN_DEADLINE_SECONDS } from "@/server/receipts/gate-queue";

export const ZRequestGateRun = z.strictObject({
  deadline_seconds: z.number().int("must be a whole number of seconds").min(MIN_DEADLINE_SECONDS).max(MAX_DEADLINE_SECONDS).optional(),
});
export type RequestGateRunBody = z.infer<typeof ZRequestGateRun>;
