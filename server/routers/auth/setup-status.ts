import { publicProcedure } from "@/server/trpc";
import { setupNeeded } from "@/server/auth/setup";
import { ZSetupStatusResponse } from "./setup-status.types";

export const setupStatusRoute = publicProcedure.output(ZSetupStatusResponse).query(async ({ ctx }) => ({ needed: await setupNeeded(ctx.db) }));
