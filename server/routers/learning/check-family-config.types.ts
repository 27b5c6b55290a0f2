import { z } from "zod";
import { FAMILY_NAMES } from "@/server/trainers/family";

export const ZCheckFamilyConfigInput = z.object({ family: z.enum(FAMILY_NAMES), config: z.unknown() }).strict();
/** "path: message" per problem; empty when the config is valid. */
export const ZCheckFamilyConfigOutput = z.object({ problems: z.array(z.string()) });
