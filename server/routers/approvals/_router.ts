import { createTRPCRouter } from "@/server/trpc";
import { panelRoute } from "./panel";
import { listApprovalsRoute } from "./list-approvals";
import { beginApprovalRoute } from "./begin-approval";
import { finishApprovalRoute } from "./finish-approval";
import { rejectCandidateRoute } from "./reject-candidate";
import { beginRollbackRoute } from "./begin-rollback";
import { finishRollbackRoute } from "./finish-rollback";
import { setBotPolicyRoute } from "./set-bot-policy";

export const approvalsRouter = createTRPCRouter({
  panel: panelRoute,
  list: listApprovalsRoute,
  begin: beginApprovalRoute,
  finish: finishApprovalRoute,
  reject: rejectCandidateRoute,
  beginRollback: beginRollbackRoute,
  finishRollback: finishRollbackRoute,
  setBotPolicy: setBotPolicyRoute,
});
