// Shapes the candidate pages read, inferred from the tRPC router (components never import server code).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/_app";

type Outputs = inferRouterOutputs<AppRouter>;
export type CandidateSummary = Outputs["candidates"]["list"]["candidates"][number];
export type CandidateDetail = Outputs["candidates"]["get"];
export type GateReportView = NonNullable<CandidateDetail["report"]>;
export type CheckView = GateReportView["checks"][number];
export type CaseTracesDetail = Outputs["candidates"]["caseTraces"];
