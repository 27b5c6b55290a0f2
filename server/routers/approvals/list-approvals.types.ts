import { z } from "zod";
import type { listApprovals } from "@/server/approvals/inbox";

export const ZListApprovalsInput = z.object({ agent: z.string().min(1).max(200).optional(), limit: z.number().int().min(1).max(200).optional() });
export const ZListApprovalsResponse = z.custom<Awaited<ReturnType<typeof listApprovals>>>();
