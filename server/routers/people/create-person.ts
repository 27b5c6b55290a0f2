import { scopedProcedure } from "@/server/trpc";
import { createUser } from "@/server/auth/users";
import { ZCreatePersonInput, ZCreatePersonResponse } from "./create-person.types";

export const createPersonRoute = scopedProcedure("users:manage")
  .input(ZCreatePersonInput)
  .output(ZCreatePersonResponse)
  .mutation(({ ctx, input }) => createUser(ctx.database, ctx.actor, input));
