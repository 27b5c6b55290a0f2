import { createTRPCRouter } from "@/server/trpc";
import { listAuditRoute } from "./list-audit";
import { verifyAuditChainRoute } from "./verify-audit-chain";

export const auditRouter = createTRPCRouter({ list: listAuditRoute, verify: verifyAuditChainRoute });
