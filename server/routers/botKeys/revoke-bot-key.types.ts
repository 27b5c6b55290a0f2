import { z } from "zod";

export const ZRevokeBotKeyInput = z.object({ keyId: z.string().min(1) });
