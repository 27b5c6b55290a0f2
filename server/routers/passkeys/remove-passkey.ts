import { scopedProcedure } from "@/server/trpc";
import { removePasskey } from "@/server/auth/passkeys";
import { ZRemovePasskeyInput } from "./remove-passkey.types";

export const removePasskeyRoute = scopedProcedure("account:self")
  .input(ZRemovePasskeyInput)
  .mutation(({ ctx, input }) => removePasskey(ctx.database, ctx.actor, input.passkeyId));
