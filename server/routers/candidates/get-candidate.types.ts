import { z } from "zod";
import type { CandidateDetail } from "@/server/receipts/candidates-view";

export const ZGetCandidateInput = z.object({ id: z.string().min(1) }).strict();
export const ZGetCandidateOutput = z.custom<CandidateDetail>();
