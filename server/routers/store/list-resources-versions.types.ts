import { z } from "zod";

export const ZListResourcesVersionsInput = z.object({ resources_id: z.string().min(1).max(512) });
