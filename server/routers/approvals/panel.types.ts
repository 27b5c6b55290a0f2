import { z } from "zod";
import type { approvalPanel } from "@/server/approvals/panel";

export const ZPanelInput = z.object({ candidateId: z.string().min(1).max(200) });
export const ZPanelResponse = z.custom<Awaited<ReturnType<typeof approvalPanel>>>();
