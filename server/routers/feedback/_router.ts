import { createTRPCRouter } from "@/server/trpc";
import { submitFeedbackRoute } from "./submit-feedback";

export const feedbackRouter = createTRPCRouter({ submit: submitFeedbackRoute });
