// Shared zod pieces of the people procedures.
import { z } from "zod";
import { HUMAN_ROLES } from "@/lib/auth/scopes";

export const ZHumanRole = z.enum(HUMAN_ROLES);
export const ZAgent = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/, "an agent name is 1–128 letters, digits or . _ : / -")
  .nullable()
  .describe("null: every agent");
export const ZHumanGrant = z.object({ role: ZHumanRole, agent: ZAgent });
