import { z } from "zod";
import type { CandidateComparison } from "@/server/receipts/compare-candidates";

const ZId = z.string().min(1).max(200);
export const ZCompareVersionsInput = z.object({ agent: ZId, a: ZId, b: ZId }).strict();
export const ZCompareVersionsOutput = z.custom<CandidateComparison>();
