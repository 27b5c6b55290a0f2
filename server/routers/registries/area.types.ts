// Shapes shared by the registries area's procedures (catalog, entry, diff).
import { z } from "zod";
import { AREA_KINDS } from "@/server/policy/kinds";

export const ZAreaKind = z.enum(AREA_KINDS);
export const ZAreaName = z.string().min(1).max(512);
export const ZAreaVersion = z.object({
  agent: z.string(),
  version: z.string(),
  seq: z.number().int(),
  digest: z.string(),
  current: z.boolean(),
  createdBy: z.string(),
  createdAt: z.date(),
  datasetId: z.string().nullable(),
  caseCount: z.number().int().nullable(),
});
