import { scopedProcedure } from "@/server/trpc";
import { verifyAuditChain } from "@/server/audit/audit-log";
import { ZVerifyAuditChainResponse } from "./verify-audit-chain.types";

export const verifyAuditChainRoute = scopedProcedure("audit:read").output(ZVerifyAuditChainResponse).query(({ ctx }) => verifyAuditChain(ctx.db));
