import { z } from "zod";
import { int32 } from "@/lib/validation/integers";

export const ZGetResourcesVersionInput = z.object({ resources_id: z.string().min(1).max(512), version: int32(1) });
