import { publicProcedure } from "@/server/trpc";
import { createFirstAdmin } from "@/server/auth/setup";
import { ZCreateFirstAdminInput, ZCreateFirstAdminResponse } from "./create-first-admin.types";

// Public only while the instance has never been set up; createFirstAdmin refuses every later call.
export const createFirstAdminRoute = publicProcedure
  .input(ZCreateFirstAdminInput)
  .output(ZCreateFirstAdminResponse)
  .mutation(({ ctx, input }) => createFirstAdmin(ctx.database, input));
