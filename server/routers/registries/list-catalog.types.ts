import { z } from "zod";
import { ZAreaKind, ZAreaVersion } from "./area.types";

export const ZListCatalogInput = z.object({}).strict().optional();
export const ZListCatalogOutput = z.array(
  z.object({ kind: ZAreaKind, name: z.string(), agents: z.array(z.string()), versions: z.number().int(), current: z.array(ZAreaVersion), updatedAt: z.date() }),
);
