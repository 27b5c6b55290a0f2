// Shapes the agent's model page reads, inferred from the tRPC router (components never import server code).
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/routers/_app";

type Outputs = inferRouterOutputs<AppRouter>;
export type AgentVersionsView = Outputs["agents"]["versions"];
export type AgentVersionView = AgentVersionsView["versions"][number];
export type ComparisonView = Outputs["agents"]["compare"];
export type VersionSideView = ComparisonView["a"];
export type PointerKindName = AgentVersionView["pointers"][number];
