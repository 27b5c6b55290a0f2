import { z } from "zod";
import { int32 } from "@/lib/validation/integers";

export const ZDiffResourcesInput = z.object({
  resources_id: z.string().min(1).max(512),
  from_version: int32(1),
  to_version: int32(1),
});
