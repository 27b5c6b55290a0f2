import { publicProcedure } from "@/server/trpc";
import { getSystemStatus } from "@/server/system/status";
import { ZStatusResponse } from "./status.types";

export const statusRoute = publicProcedure.output(ZStatusResponse).query(({ ctx }) => getSystemStatus(ctx.database));
