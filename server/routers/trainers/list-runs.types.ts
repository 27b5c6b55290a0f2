import { z } from "zod";
import { RUN_STATUSES } from "@/server/training/runs";
import { ZRunHealth, ZRunSummary } from "./runs.types";

export const ZListRunsInput = z
  .object({ status: z.array(z.enum(RUN_STATUSES)).optional(), tag: z.string().trim().max(40).optional(), search: z.string().trim().max(120).optional(), limit: z.number().int().min(1).max(200).default(50), offset: z.number().int().min(0).default(0) })
  .strict()
  .default({ limit: 50, offset: 0 });

export const ZListRunsOutput = z.object({ items: z.array(ZRunSummary.extend({ candidates: z.number().int(), health: ZRunHealth })), total: z.number().int() });
