import { scopedProcedure } from "@/server/trpc";
import { rejectionBeginRefusal } from "@/server/approvals/refusal-contexts";
import { recordScopeRefusal } from "./scope-refusals";
import { beginRejection } from "@/server/approvals/reject";
import { receiptSource } from "@/server/approvals/db-source";
import { ZBeginRejectionInput, ZBeginRejectionResponse } from "./begin-rejection.types";

export const beginRejectionRoute = scopedProcedure("approval:reject", { agentInput: "agent", onRefused: recordScopeRefusal(rejectionBeginRefusal) })
  .input(ZBeginRejectionInput)
  .output(ZBeginRejectionResponse)
  .mutation(({ ctx, input }) => beginRejection(ctx.database, ctx.actor, input, { source: receiptSource }));
