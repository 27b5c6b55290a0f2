import { scopedProcedure } from "@/server/trpc";
import { revokeRole } from "@/server/auth/users";
import { ZChangeRoleInput, ZChangeRoleResponse } from "./change-role.types";

export const revokeRoleRoute = scopedProcedure("users:manage")
  .input(ZChangeRoleInput)
  .output(ZChangeRoleResponse)
  .mutation(({ ctx, input }) => revokeRole(ctx.database, ctx.actor, input.userId, { role: input.role, agent: input.agent }));
