import { scopedProcedure } from "@/server/trpc";
import { grantRole } from "@/server/auth/users";
import { ZChangeRoleInput, ZChangeRoleResponse } from "./change-role.types";

export const grantRoleRoute = scopedProcedure("users:manage")
  .input(ZChangeRoleInput)
  .output(ZChangeRoleResponse)
  .mutation(({ ctx, input }) => grantRole(ctx.database, ctx.actor, input.userId, { role: input.role, agent: input.agent }));
