import { createTRPCRouter } from "@/server/trpc";
import { recordHumanVerificationRoute } from "./record-human-verification";

export const verificationsRouter = createTRPCRouter({ recordHuman: recordHumanVerificationRoute });
