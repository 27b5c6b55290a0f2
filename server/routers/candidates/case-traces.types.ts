import { z } from "zod";
import type { CaseTraces } from "@/server/traces/case-traces";

// Ids come from a shareable URL: bounded, never trusted (an unknown one is NOT_FOUND, never a 5xx).
export const ZCaseTracesInput = z.object({ candidateId: z.string().min(1).max(200), caseId: z.string().min(1).max(512) }).strict();
export const ZCaseTracesOutput = z.custom<CaseTraces>();
