import { publishRegistryEntry } from "@/server/receipts/registries";
import { scopedProcedure } from "@/server/trpc";
import { ZPublishRegistryEntryInput, ZPublishRegistryEntryOutput } from "./publish-registry-entry.types";

// policy:write checked for the agent named in the input ("*" names every agent, so it needs the scope everywhere).
export const publishRegistryEntryRoute = scopedProcedure("policy:write", { agentInput: "agent" })
  .input(ZPublishRegistryEntryInput)
  .output(ZPublishRegistryEntryOutput)
  .mutation(async ({ ctx, input }) => ({ ...(await publishRegistryEntry(ctx.database, { ...input, actor: ctx.actor })), current: true }));
