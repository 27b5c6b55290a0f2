import { scopedProcedure } from "@/server/trpc";
import { beginTestSignature } from "@/server/auth/passkey-test";
import { ZBeginTestSignatureResponse } from "./begin-test-signature.types";

export const beginTestSignatureRoute = scopedProcedure("account:self")
  .output(ZBeginTestSignatureResponse)
  .mutation(({ ctx }) => beginTestSignature(ctx.database, ctx.actor));
