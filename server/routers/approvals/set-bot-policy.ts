import { scopedProcedure } from "@/server/trpc";
import { setBotPolicy } from "@/server/approvals/bot-policy";
import { ZSetBotPolicyInput, ZSetBotPolicyResponse } from "./set-bot-policy.types";

// The release bot's limits are promotion policy: outside anything a trainer or the bot itself can write.
export const setBotPolicyRoute = scopedProcedure("policy:write")
  .input(ZSetBotPolicyInput)
  .output(ZSetBotPolicyResponse)
  .mutation(({ ctx, input }) => setBotPolicy(ctx.database, ctx.actor, input));
