import { scopedProcedure } from "@/server/trpc";
import { revokeBotKey } from "@/server/auth/bot-keys";
import { ZRevokeBotKeyInput } from "./revoke-bot-key.types";

export const revokeBotKeyRoute = scopedProcedure("apikeys:manage")
  .input(ZRevokeBotKeyInput)
  .mutation(({ ctx, input }) => revokeBotKey(ctx.database, ctx.actor, input.keyId));
