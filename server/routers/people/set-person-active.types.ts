import { z } from "zod";

export const ZSetPersonActiveInput = z.object({ userId: z.string().min(1), active: z.boolean() });
