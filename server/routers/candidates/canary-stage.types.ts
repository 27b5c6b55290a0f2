import { z } from "zod";
import type { CanaryStageLive } from "@/server/receipts/gate-run/canary-live";

export const ZCanaryStageInput = z.object({ candidateId: z.string().min(1).max(200) }).strict();
export const ZCanaryStageOutput = z.custom<CanaryStageLive | null>();
