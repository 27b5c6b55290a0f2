import { z } from "zod";
import { ZEvaluationRequest } from "@/server/evaluations/evaluation";

/** The evaluation request (protocols, subject, data and their options); validated fields are named on refusal. */
export const ZStartEvaluationInput = ZEvaluationRequest;
export const ZStartJobOutput = z.object({ id: z.string() });
