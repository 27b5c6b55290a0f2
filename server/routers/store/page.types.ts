import { z } from "zod";

/** Server-side pagination shared by the store's list procedures. */
export const ZPage = { limit: z.number().int().min(1).max(500).default(50), offset: z.number().int().min(0).default(0), sort_order: z.enum(["asc", "desc"]).default("desc") };
