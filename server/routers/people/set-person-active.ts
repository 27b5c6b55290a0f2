import { scopedProcedure } from "@/server/trpc";
import { setUserDisabled } from "@/server/auth/users";
import { ZSetPersonActiveInput } from "./set-person-active.types";

export const setPersonActiveRoute = scopedProcedure("users:manage")
  .input(ZSetPersonActiveInput)
  .mutation(({ ctx, input }) => setUserDisabled(ctx.database, ctx.actor, input.userId, !input.active));
