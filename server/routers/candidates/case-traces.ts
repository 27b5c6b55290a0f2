import { caseTraces } from "@/server/traces/case-traces";
import { scopedProcedure } from "@/server/trpc";
import { ZCaseTracesInput, ZCaseTracesOutput } from "./case-traces.types";

// One locked-gate case: the exact parent's and the candidate's traces side by side, with what differs.
export const caseTracesRoute = scopedProcedure("dashboard:read")
  .input(ZCaseTracesInput)
  .output(ZCaseTracesOutput)
  .query(({ ctx, input }) => caseTraces(ctx.database, input.candidateId, input.caseId));
