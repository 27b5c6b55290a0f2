import { agentVersions } from "@/server/receipts/agent-versions";
import { DomainError } from "@/server/errors";
import { scopedProcedure } from "@/server/trpc";
import { ZListVersionsInput, ZListVersionsOutput } from "./list-versions.types";

// The agent's model page: every version with its verdict, origin, approvals and the pointers that name it.
export const listVersionsRoute = scopedProcedure("dashboard:read")
  .input(ZListVersionsInput)
  .output(ZListVersionsOutput)
  .query(async ({ ctx, input }) => {
    const versions = await agentVersions(ctx.database, input.agent);
    if (!versions) throw new DomainError("NOT_FOUND", `agent: no candidate and no pointer for agent ${input.agent.slice(0, 200)}`, "agent");
    return versions;
  });
