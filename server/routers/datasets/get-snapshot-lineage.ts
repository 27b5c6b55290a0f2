import { TRPCError } from "@trpc/server";
import { snapshotAncestry } from "@/server/datasets/snapshot";
import { scopedProcedure } from "@/server/trpc";
import { ZGetSnapshotLineageInput, ZGetSnapshotLineageOutput } from "./get-snapshot-lineage.types";

export const getSnapshotLineageRoute = scopedProcedure("dashboard:read")
  .input(ZGetSnapshotLineageInput)
  .output(ZGetSnapshotLineageOutput)
  .query(async ({ ctx, input }) => {
    const chain = await snapshotAncestry(ctx.database, input.digest);
    if (chain.length === 0) throw new TRPCError({ code: "NOT_FOUND", message: `no dataset snapshot ${input.digest}` });
    return chain;
  });
