import { submitFeedback } from "@/server/datasets/feedback-inbox";
import { scopedProcedure } from "@/server/trpc";
import { ZSubmitFeedbackInput, ZSubmitFeedbackOutput } from "./submit-feedback.types";

export const submitFeedbackRoute = scopedProcedure("store:write")
  .input(ZSubmitFeedbackInput)
  .output(ZSubmitFeedbackOutput)
  .mutation(async ({ ctx, input }) => {
    const { id, created } = await submitFeedback(ctx.database, input);
    return { id, created };
  });
