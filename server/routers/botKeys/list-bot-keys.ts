import { scopedProcedure } from "@/server/trpc";
import { listBotKeys } from "@/server/auth/bot-keys";
import { ZListBotKeysResponse } from "./list-bot-keys.types";

export const listBotKeysRoute = scopedProcedure("apikeys:manage").output(ZListBotKeysResponse).query(({ ctx }) => listBotKeys(ctx.db));
