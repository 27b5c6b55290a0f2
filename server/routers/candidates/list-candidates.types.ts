import { z } from "zod";
import type { CandidateSummary } from "@/server/receipts/candidates-view";

export const ZListCandidatesInput = z.object({ agent: z.string().min(1).optional() }).strict().default({});
export const ZCandidateSummary = z.custom<CandidateSummary>();
export const ZListCandidatesOutput = z.object({ agents: z.array(z.string()), candidates: z.array(ZCandidateSummary) });
