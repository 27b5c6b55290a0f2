// Shared zod pieces of the people procedures.
import { z } from "zod";
import { HUMAN_ROLES } from "@/lib/auth/scopes";

export const ZHumanRole = z.enum(HUMAN_ROLES);
/** An agent's name, as role grants, runs and pointers spell it. */
export const ZAgentName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, "an agent name is 1–128 letters, digits or . _ : / -");
export const ZAgent = ZAgentName.nullable().describe("null: every agent");
export const ZHumanGrant = z.object({ role: ZHumanRole, agent: ZAgent });
