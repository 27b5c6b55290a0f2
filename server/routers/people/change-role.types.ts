import { z } from "zod";
import { ZHumanGrant, ZHumanRole, ZAgent } from "./people.types";

export const ZChangeRoleInput = z.object({ userId: z.string().min(1), role: ZHumanRole, agent: ZAgent });
export const ZChangeRoleResponse = z.array(ZHumanGrant);
