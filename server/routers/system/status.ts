import { actorCan } from "@/server/auth/actor";
import { publicProcedure } from "@/server/trpc";
import { getSystemStatus } from "@/server/system/status";
import { ZStatusResponse } from "./status.types";

// Public, so the status page and a load balancer can ask; where the database lives, its version and the
// migrations applied are for people who read the dashboard (`dashboard:read`), not for strangers.
export const statusRoute = publicProcedure.output(ZStatusResponse).query(async ({ ctx }) => {
  const status = await getSystemStatus(ctx.database);
  return ctx.actor && actorCan(ctx.actor, "dashboard:read") ? status : { ok: status.ok, checkedAt: status.checkedAt };
});
