import { actorCan } from "@/server/auth/actor";
import { diffVersions } from "@/server/policy/diff";
import { scopedProcedure } from "@/server/trpc";
import { ZDiffVersionsInput, ZDiffVersionsOutput } from "./diff-versions.types";

// An exam's expected answers only for those who write or verify exams (as GET /v1/gate/datasets/:id).
export const diffVersionsRoute = scopedProcedure("dashboard:read")
  .input(ZDiffVersionsInput)
  .output(ZDiffVersionsOutput)
  .query(({ ctx, input }) => diffVersions(ctx.database.db, { ...input, withExpected: actorCan(ctx.actor, "policy:write") || actorCan(ctx.actor, "canary:verify") }));
