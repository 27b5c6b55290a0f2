import { z } from "zod";
import { int32 } from "@/lib/validation/integers";
import { FAMILY_NAMES } from "@/server/trainers/family";
import { ZAgentName } from "../people/people.types";
import { ZTag } from "./label-run.types";

export const ZStartRunInput = z
  .object({
    /** The agent the run trains a candidate for (its pointers, its exam); the built-in support desk by default. */
    agent: ZAgentName.default("support-desk"),
    family: z.enum(FAMILY_NAMES, { error: `family must be one of ${FAMILY_NAMES.join(", ")}` }),
    /** The family's options; validated by the family registry's own zod schema. */
    config: z.record(z.string(), z.unknown()).default({}),
    seed: z.string().min(1, "seed is required").max(200).refine((s) => !s.startsWith("held-out"), "seed must not start with held-out (the locked gate's namespace)"),
    environment: z.string().min(1).default("support-desk"),
    distribution: z.string().min(1).default("v2"),
    parent: z.object({ resourcesId: z.string().min(1, "parent.resourcesId is required"), version: int32(1, { min: "parent.version must be ≥ 1" }) }).strict().nullable().optional(),
    dataSnapshotId: z.string().min(1).nullable().optional(),
    updates: z.number().int("updates must be a whole number").min(1, "updates must be ≥ 1").max(10_000, "updates must be ≤ 10000"),
    checkpointEvery: z.number().int().min(1, "checkpointEvery must be ≥ 1").max(1_000).default(5),
    continual: z.boolean().default(false),
    candidateEvery: int32(1, { min: "candidateEvery must be ≥ 1" }).nullable().optional(),
    heldOutCases: z.number().int().min(20, "heldOutCases must be ≥ 20").max(2_000, "heldOutCases must be ≤ 2000").default(200),
    retryBudget: int32(0, { min: "retryBudget must be ≥ 0" }).default(100),
    name: z.string().max(120, "name must be at most 120 characters").nullable().optional(),
    tags: z.array(ZTag).max(12, "at most 12 tags").optional(),
  })
  .strict();

export const ZStartRunOutput = z.object({ id: z.string(), status: z.string() });
