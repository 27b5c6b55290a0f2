import { z } from "zod";
import { ZSignatureInput } from "./finish-approval.types";

export const ZFinishRejectionInput = z.object(ZSignatureInput);
export const ZFinishRejectionResponse = z.object({ decisionId: z.string(), linkDigest: z.string(), step: z.enum(["canary", "default"]) });
