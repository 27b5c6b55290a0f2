import { z } from "zod";
import type { AbTestReport } from "@/server/evaluations/ab";
import type { EvaluationReport } from "@/server/evaluations/evaluation";
import { ZJobSummary } from "./list-evaluations.types";

export const ZGetEvaluationInput = z.object({ id: z.string().min(1, "id must not be empty") }).strict();
// The request and report are written by this server from validated input; their shapes are the domain's types.
export const ZGetEvaluationOutput = ZJobSummary.extend({ request: z.unknown(), result: z.custom<EvaluationReport | AbTestReport>().nullable() });
