import { z } from "zod";
import { registryPinProblem } from "@/server/receipts/registries";
import { ZRegistryKind, ZRegistryRecord } from "./list-registry.types";

export const ZPublishRegistryEntryInput = z
  .object({
    kind: ZRegistryKind,
    name: z.string().trim().min(1, "name the record (evaluator id, tool, family…)"),
    /** The agent the record applies to, or "*" for every agent. */
    agent: z.string().min(1),
    /** A label such as "4" or "1.4.2"; defaults to the next publication number. */
    version: z.string().trim().min(1).max(64).optional(),
    body: z.json(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    const moving = registryPinProblem(entry);
    if (moving) ctx.addIssue({ code: "custom", path: [moving.field], message: moving.message });
  });
export const ZPublishRegistryEntryOutput = ZRegistryRecord;
