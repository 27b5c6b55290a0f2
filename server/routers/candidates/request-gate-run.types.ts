import { z } from "zod";

export const ZRequestGateRunInput = z.object({ candidateId: z.string().min(1) }).strict();
export const ZRequestGateRunOutput = z.object({ id: z.string(), candidateId: z.string(), status: z.string(), requestedAt: z.date() });
