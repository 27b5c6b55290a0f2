// Stage 1 — before training: identity and authority, and the evidence the update must produce.
import { z } from "zod";
import { ZJson } from "../digest";
import { ZVersionSet } from "../versions";
import { authoritySchema, ZCandidateDeclaration, ZEvaluatorRef, ZResourceRef, ZSnapshotRef } from "./refs";

const ZName = z.string().min(1);
const unique = <T>(xs: readonly T[]) => new Set(xs).size === xs.length;

/**
 * Declared before looking at results. `spanFamilies` are names such as `llm.call`, `tool.call:update_ticket`,
 * `reward` (see evidence/spans.ts for how a span gets its family).
 */
export const ZExpectedEvidence = z.object({
  spanFamilies: z.array(ZName).min(1).refine(unique, "span families must be unique"),
  retryBudget: z.object({
    /** Planned resamples per rollout (e.g. n samples per task). More than this is debt. */
    expectedResamplesPerRollout: z.number().int().min(0),
    /** Unexpected (infrastructure, manual) retries tolerated over the whole window; 0 = none. */
    unexpectedRetries: z.number().int().min(0),
  }),
  /** Protected-case families; maxRegressions 0 is zero tolerance, more is an explicit, bounded budget. */
  protectedFamilies: z
    .array(z.object({ family: ZName, maxRegressions: z.number().int().min(0) }))
    .refine((fs) => unique(fs.map((f) => f.family)), "protected families must be unique"),
  canaryBoundary: z.object({
    maxTasks: z.number().int().min(1),
    maxWallTimeSeconds: z.number().positive(),
    allowedTools: z.array(ZName),
    maxCostUsd: z.number().min(0),
    allowedSideEffects: z.array(ZName),
  }),
});
export type ExpectedEvidence = z.infer<typeof ZExpectedEvidence>;
export type CanaryBoundary = ExpectedEvidence["canaryBoundary"];

export const ZStage1 = z.object({
  /** The agent/workflow whose pointers this candidate may move. */
  agent: ZName,
  candidate: ZCandidateDeclaration,
  /** The exact parent: a loadable, content-addressed artifact, never `latest`. */
  parent: ZResourceRef,
  /**
   * The held-out (locked gate) snapshot also declares how many cases it holds, so a dropped case shows. The
   * canary task set (a published gate dataset) is pinned the same way when the gate asks runners for the
   * canary; receipts sealed before it existed have none.
   */
  data: z.object({
    training: ZSnapshotRef,
    heldOut: ZSnapshotRef.extend({ caseCount: z.number().int().min(1) }),
    canary: ZSnapshotRef.extend({ caseCount: z.number().int().min(1) }).optional(),
  }),
  evaluator: ZEvaluatorRef,
  algorithm: z.object({ name: ZName, config: z.record(z.string(), ZJson) }),
  codeRevision: z.string().regex(/^[0-9a-f]{7,64}$/, "must be a commit hash (7–64 lowercase hex)"),
  scope: z.object({ tasks: z.array(ZName).min(1), tools: z.array(ZName), destinations: z.array(ZName) }),
  approvers: z.object({ canary: authoritySchema("canary"), default: authoritySchema("default") }),
  expectedEvidence: ZExpectedEvidence,
  /** The versions in force when the receipt was opened. */
  versions: ZVersionSet,
  declaredBy: ZName,
  declaredAt: z.iso.datetime(),
});
export type Stage1 = z.infer<typeof ZStage1>;
