import { z } from "zod";

export const ZRemovePasskeyInput = z.object({ passkeyId: z.string().min(1) });
