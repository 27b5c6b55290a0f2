import { z } from "zod";
import { ZFeedbackSubmission } from "@/server/datasets/records";

/** Feedback on one interaction, as a client sends it (the server derives its id from its content). */
export const ZSubmitFeedbackInput = ZFeedbackSubmission;
export const ZSubmitFeedbackOutput = z.object({ id: z.string(), created: z.boolean() });
