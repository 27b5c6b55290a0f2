import { scopedProcedure } from "@/server/trpc";
import { beginPasskeyRegistration } from "@/server/auth/passkeys";
import { ZBeginRegistrationResponse } from "./begin-registration.types";

export const beginRegistrationRoute = scopedProcedure("account:self")
  .output(ZBeginRegistrationResponse)
  .mutation(({ ctx }) => beginPasskeyRegistration(ctx.database, ctx.actor));
