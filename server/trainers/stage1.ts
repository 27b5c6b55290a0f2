// What a training run must declare before it starts (receipt stage 1), from the family registry's
// facts plus the deployment context only the caller knows (agent, reserved candidate id, the parent's
// resource id and version, evaluator, approvers, model server, who declares and when). The result is
// checked with the gate's own ZStage1 and refused with the failing field named.
import type { JsonObject } from "@/server/gate/digest";
import type { EvaluatorRef } from "@/server/gate/receipt/refs";
import { ZStage1, type ExpectedEvidence, type Stage1 } from "@/server/gate/receipt/stage1";
import { evaluatorKey, type VersionSet } from "@/server/gate/versions";
import { digestOf, hexId, type Digest } from "@/server/digest";
import type { DistributionRef } from "@/server/environments/types";
import type { AnyEnvironment, FamilyName } from "./family";

export type Stage1Facts = {
  algorithm: { name: FamilyName; config: JsonObject };
  parent: { resourceType: string; digest: Digest };
  environment: { id: string; specDigest: string };
  taskDistribution: DistributionRef;
  data: { training: { id: string; digest: Digest; kind: "dataset-snapshot" | "task-distribution" }; heldOut: { id: string; digest: Digest; caseCount: number } | null };
  codeRevision: string;
  expectedEvidence: ExpectedEvidence;
  /** The environment's tool contracts in force (name → contract digest). */
  toolContracts: Record<string, Digest>;
};

export const CODE_REVISION = /^[0-9a-f]{7,64}$/;

/** The evidence every rollout of a candidate of this family must show, from the environment's spec. */
export function expectedEvidenceFor(env: AnyEnvironment, spanFamilies: readonly string[], unexpectedRetries: number): ExpectedEvidence {
  const safe = env.tools.filter((t) => !t.destructive);
  return {
    spanFamilies: [...spanFamilies],
    retryBudget: { expectedResamplesPerRollout: 0, unexpectedRetries },
    protectedFamilies: env.protectedFamilies.map((family) => ({ family, maxRegressions: 0 })),
    canaryBoundary: {
      maxTasks: 20,
      maxWallTimeSeconds: 3600,
      allowedTools: safe.map((t) => t.name).sort(),
      maxCostUsd: 0,
      allowedSideEffects: [...new Set(safe.flatMap((t) => t.sideEffects))].sort(),
    },
  };
}

/** The id prefix that marks a training-data pin as a task distribution, not a dataset snapshot. */
export const TASK_DISTRIBUTION_DATA_PREFIX = "td-";

/** A stable id for a pinned task distribution used as a family's training data (families that collect). */
export function distributionDataRef(d: DistributionRef): Stage1Facts["data"]["training"] {
  return { id: `${TASK_DISTRIBUTION_DATA_PREFIX}${hexId(12, d.digest)}`, digest: d.digest, kind: "task-distribution" };
}

export type ReceiptContext = {
  agent: string;
  /** The reserved id (and version/digest, once it exists) of the candidate. */
  candidate: { resourceId: string; version?: number; digest?: Digest };
  /** The exact parent as the store pins it (its resources-version digest, what the gate re-loads). */
  parent: { resourceId: string; version: number; digest: Digest };
  evaluator: EvaluatorRef;
  approvers: Stage1["approvers"];
  /** The model server the candidate runs on (endpoint + version). */
  modelServer: string;
  destinations: string[];
  /** The agent's approved default now (the parent the gate compares against); defaults to this run's parent. */
  approvedDefault?: Digest;
  declaredBy: string;
  declaredAt: string;
  /**
   * The gate datasets the agent's policy owner published (the exam runners are asked to take): they replace
   * the run's own locked seed set as the held-out pin, and pin the canary task set.
   */
  gateData?: { heldOut: GatePin | null; canary: GatePin | null };
};

type GatePin = { id: string; digest: Digest; caseCount: number };

/** Stage 1 of the receipt, validated with the gate's schema (throws naming the field on any gap). */
export function stage1Receipt(facts: Stage1Facts, ctx: ReceiptContext): Stage1 {
  if (!facts.data.heldOut) throw new Error("a receipt needs the locked held-out set: start the run with heldOut");
  const env = facts.environment;
  const versions: VersionSet = {
    evaluator: evaluatorKey(ctx.evaluator),
    toolContracts: { ...facts.toolContracts },
    taskDistribution: `${facts.taskDistribution.environment}/${facts.taskDistribution.version}#${facts.taskDistribution.digest}`,
    parent: ctx.approvedDefault ?? ctx.parent.digest,
    retryPolicy: digestOf({ retryBudget: facts.expectedEvidence.retryBudget }),
    permissions: facts.expectedEvidence.canaryBoundary.allowedTools,
    destinations: [...ctx.destinations],
    modelServer: ctx.modelServer,
  };
  const stage1 = {
    agent: ctx.agent,
    candidate: ctx.candidate,
    parent: { resourceId: ctx.parent.resourceId, version: ctx.parent.version, digest: ctx.parent.digest },
    data: {
      training: { id: facts.data.training.id, digest: facts.data.training.digest },
      heldOut: ctx.gateData?.heldOut ?? facts.data.heldOut,
      ...(ctx.gateData?.canary ? { canary: ctx.gateData.canary } : {}),
    },
    evaluator: ctx.evaluator,
    algorithm: facts.algorithm,
    codeRevision: facts.codeRevision,
    scope: { tasks: [`${env.id}/${facts.taskDistribution.version}`], tools: facts.expectedEvidence.canaryBoundary.allowedTools, destinations: [...ctx.destinations] },
    approvers: ctx.approvers,
    expectedEvidence: facts.expectedEvidence,
    versions,
    declaredBy: ctx.declaredBy,
    declaredAt: ctx.declaredAt,
  };
  const parsed = ZStage1.safeParse(stage1);
  if (!parsed.success) throw new Error(`stage 1 is incomplete: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}
