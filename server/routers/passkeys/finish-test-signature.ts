import { scopedProcedure } from "@/server/trpc";
import { finishTestSignature } from "@/server/auth/passkey-test";
import { ZFinishTestSignatureInput, ZFinishTestSignatureResponse } from "./finish-test-signature.types";

export const finishTestSignatureRoute = scopedProcedure("account:self")
  .input(ZFinishTestSignatureInput)
  .output(ZFinishTestSignatureResponse)
  .mutation(({ ctx, input }) => finishTestSignature(ctx.database, ctx.actor, input));
