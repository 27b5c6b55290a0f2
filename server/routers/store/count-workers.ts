// Runners by status (idle, busy, unknown) across the store.
import { scopedProcedure } from "@/server/trpc";
import { storeFor } from "@/server/store";
import { ZCountWorkersInput } from "./count-workers.types";

export const countWorkersRoute = scopedProcedure("dashboard:read")
  .input(ZCountWorkersInput)
  .query(({ ctx }) => storeFor(ctx.database).workerCounts());
