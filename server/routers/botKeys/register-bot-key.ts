import { scopedProcedure } from "@/server/trpc";
import { registerBotKey } from "@/server/auth/bot-keys";
import { ZRegisterBotKeyInput, ZRegisterBotKeyResponse } from "./register-bot-key.types";

export const registerBotKeyRoute = scopedProcedure("apikeys:manage")
  .input(ZRegisterBotKeyInput)
  .output(ZRegisterBotKeyResponse)
  .mutation(({ ctx, input }) => registerBotKey(ctx.database, ctx.actor, input));
