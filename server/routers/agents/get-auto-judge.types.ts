import { z } from "zod";

export const ZGetAutoJudgeInput = z.strictObject({ agent: z.string().min(1).max(200) });

const ZJudgedVersion = z.object({
  version: z.number(),
  digest: z.string(),
  state: z.string(),
  reason: z.string().nullable(),
  coalescedInto: z.number().nullable(),
  parent: z.string().nullable(),
  candidateId: z.string().nullable(),
  receiptId: z.string().nullable(),
  gateRunId: z.string().nullable(),
  gateRunStatus: z.string().nullable(),
  verdict: z.string().nullable(),
  seenAt: z.date(),
});

export const ZGetAutoJudgeOutput = z.object({
  agent: z.string(),
  settings: z.array(z.object({ resourcesId: z.string(), enabled: z.boolean(), sinceVersion: z.number(), changedBy: z.string(), changedAt: z.date(), standing: z.object({ receiptId: z.string(), declaredAt: z.date() }).nullable(), versions: z.array(ZJudgedVersion) })),
});
