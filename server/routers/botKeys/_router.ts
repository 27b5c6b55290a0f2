import { createTRPCRouter } from "@/server/trpc";
import { listBotKeysRoute } from "./list-bot-keys";
import { registerBotKeyRoute } from "./register-bot-key";
import { revokeBotKeyRoute } from "./revoke-bot-key";

export const botKeysRouter = createTRPCRouter({ list: listBotKeysRoute, register: registerBotKeyRoute, revoke: revokeBotKeyRoute });
