import { z } from "zod";
import { ZAreaKind, ZAreaName, ZAreaVersion } from "./area.types";

const ZLabel = z.string().min(1).max(64);
export const ZDiffVersionsInput = z.object({ kind: ZAreaKind, name: ZAreaName, agent: z.string().min(1).max(200), a: ZLabel, b: ZLabel }).strict();
export const ZDiffVersionsOutput = z.object({
  a: ZAreaVersion,
  b: ZAreaVersion,
  entries: z.array(z.object({ path: z.string(), change: z.enum(["added", "removed", "changed"]), before: z.string().optional(), after: z.string().optional(), secret: z.boolean() })),
  changed: z.number().int(),
  unchanged: z.number().int(),
  content: z.unknown(),
});
