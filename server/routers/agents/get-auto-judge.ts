import { autoJudgeView } from "@/server/auto-judge/settings";
import { scopedProcedure } from "@/server/trpc";
import { ZGetAutoJudgeInput, ZGetAutoJudgeOutput } from "./get-auto-judge.types";

export const getAutoJudgeRoute = scopedProcedure("dashboard:read")
  .input(ZGetAutoJudgeInput)
  .output(ZGetAutoJudgeOutput)
  .query(({ ctx, input }) => autoJudgeView(ctx.db, input.agent));
