import { z } from "zod";

export const ZGetResourcesVersionInput = z.object({ resources_id: z.string().min(1).max(512), version: z.number().int().min(1) });
