import { z } from "zod";
import { ZSignatureInput } from "./finish-approval.types";

export const ZFinishRollbackInput = z.object(ZSignatureInput);
export const ZFinishRollbackResponse = z.object({ decisionId: z.string(), pointer: z.string(), from: z.json().nullable(), to: z.json() });
