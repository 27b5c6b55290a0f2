import { z } from "zod";
import type { AgentVersions } from "@/server/receipts/agent-versions";

export const ZListVersionsInput = z.object({ agent: z.string().min(1).max(200) }).strict();
export const ZListVersionsOutput = z.custom<AgentVersions>();
