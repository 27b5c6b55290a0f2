import { z } from "zod";
import { REGISTRY_KINDS } from "@/server/receipts/registries";

export const ZRegistryKind = z.enum(REGISTRY_KINDS);
export const ZListRegistryInput = z
  .object({ kind: ZRegistryKind.optional(), agent: z.string().min(1).optional(), name: z.string().min(1).optional(), currentOnly: z.boolean().optional() })
  .strict()
  .default({});
export const ZRegistryRecord = z.object({
  kind: ZRegistryKind,
  name: z.string(),
  agent: z.string(),
  seq: z.number().int(),
  version: z.string(),
  digest: z.string(),
  body: z.unknown(),
  createdById: z.string(),
  createdAt: z.date(),
  current: z.boolean(),
});
export const ZListRegistryOutput = z.array(ZRegistryRecord);
