import { publicProcedure } from "@/server/trpc";
import { describeActor } from "@/server/auth/describe-actor";
import { ZMeResponse } from "./me.types";

// Public on purpose: answers null without a session, so the shell can show "sign in".
export const meRoute = publicProcedure.output(ZMeResponse).query(({ ctx }) => describeActor(ctx.actor));
