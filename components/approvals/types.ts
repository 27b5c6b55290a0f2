import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/_app";

type Out = inferRouterOutputs<AppRouter>["approvals"];
export type PanelData = Out["panel"];
export type Panel = PanelData["panel"];
export type RollbackOption = PanelData["rollback"][number];
export type ApprovalsList = Out["list"];
export type Decision = ApprovalsList["recent"][number];
