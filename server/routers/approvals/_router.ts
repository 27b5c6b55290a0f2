import { createTRPCRouter } from "@/server/trpc";
import { panelRoute } from "./panel";
import { listApprovalsRoute } from "./list-approvals";
import { beginApprovalRoute } from "./begin-approval";
import { finishApprovalRoute } from "./finish-approval";
import { beginRejectionRoute } from "./begin-rejection";
import { finishRejectionRoute } from "./finish-rejection";
import { beginRollbackRoute } from "./begin-rollback";
import { finishRollbackRoute } from "./finish-rollback";
import { setBotPolicyRoute } from "./set-bot-policy";

export const approvalsRouter = createTRPCRouter({
  panel: panelRoute,
  list: listApprovalsRoute,
  begin: beginApprovalRoute,
  finish: finishApprovalRoute,
  beginReject: beginRejectionRoute,
  finishReject: finishRejectionRoute,
  beginRollback: beginRollbackRoute,
  finishRollback: finishRollbackRoute,
  setBotPolicy: setBotPolicyRoute,
});
