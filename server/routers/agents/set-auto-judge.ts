import { setAutoJudge } from "@/server/auto-judge/settings";
import { scopedProcedure } from "@/server/trpc";
import { ZSetAutoJudgeInput, ZSetAutoJudgeOutput } from "./set-auto-judge.types";

// policy:write for the agent named in the input: what the gate judges an agent's versions against is policy.
export const setAutoJudgeRoute = scopedProcedure("policy:write", { agentInput: "agent" })
  .input(ZSetAutoJudgeInput)
  .output(ZSetAutoJudgeOutput)
  .mutation(({ ctx, input }) => setAutoJudge(ctx.database, ctx.actor, input));
