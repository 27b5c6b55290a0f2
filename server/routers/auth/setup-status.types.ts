import { z } from "zod";

export const ZSetupStatusResponse = z.object({ needed: z.boolean() });
