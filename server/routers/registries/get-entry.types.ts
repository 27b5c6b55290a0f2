import { z } from "zod";
import { ZAreaKind, ZAreaName, ZAreaVersion } from "./area.types";

export const ZGetEntryInput = z.object({ kind: ZAreaKind, name: ZAreaName }).strict();
export const ZGetEntryOutput = z.object({ kind: ZAreaKind, name: z.string(), agents: z.array(z.string()), versions: z.array(ZAreaVersion) });
