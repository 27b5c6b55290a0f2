import { scopedProcedure } from "@/server/trpc";
import { finishPasskeyRegistration } from "@/server/auth/passkeys";
import { ZFinishRegistrationInput } from "./finish-registration.types";

export const finishRegistrationRoute = scopedProcedure("account:self")
  .input(ZFinishRegistrationInput)
  .mutation(({ ctx, input }) => finishPasskeyRegistration(ctx.database, ctx.actor, input));
