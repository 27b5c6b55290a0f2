import { DomainError } from "@/server/errors";
import { registryEntry } from "@/server/policy/catalog";
import { scopedProcedure } from "@/server/trpc";
import { ZGetEntryInput, ZGetEntryOutput } from "./get-entry.types";

export const getEntryRoute = scopedProcedure("dashboard:read")
  .input(ZGetEntryInput)
  .output(ZGetEntryOutput)
  .query(async ({ ctx, input }) => {
    const entry = await registryEntry(ctx.database.db, input.kind, input.name);
    if (!entry) throw new DomainError("NOT_FOUND", `name: no ${input.kind} named ${input.name.slice(0, 200)} was published`, "name");
    return entry;
  });
