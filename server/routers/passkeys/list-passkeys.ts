import { scopedProcedure } from "@/server/trpc";
import { myPasskeys } from "@/server/auth/passkeys";
import { ZListPasskeysResponse } from "./list-passkeys.types";

export const listPasskeysRoute = scopedProcedure("account:self").output(ZListPasskeysResponse).query(({ ctx }) => myPasskeys(ctx.db, ctx.actor));
