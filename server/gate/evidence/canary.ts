// The bounded canary: did each task's destination show the expected outcome, inside the declared boundary?
import type { CanaryBoundary } from "../receipt/stage1";
import type { CanaryOutcome, CanaryRun } from "../receipt/stage3";

export type TaskFinding =
  | "verified" // destination re-read and matched
  | "weakly-verified" // judge/human said pass, confident enough under the policy
  | "wrong-outcome" // destination re-read and did not match, or judge/human said fail
  | "unverified"; // could not be checked, or weak evidence too uncertain to count

export type CanarySummary = {
  status: "available" | "unavailable";
  /** Where the canary ran (null when it did not). */
  environment: string | null;
  modelServer: string | null;
  tasks: number;
  verified: number;
  findings: Record<TaskFinding, string[]>;
  /** Weaker evidence, with its uncertainty, whether or not it counted. */
  weakEvidence: { taskId: string; method: "judge" | "human"; verdict: "pass" | "fail"; confidence: number; counted: boolean }[];
  harmful: { taskId: string; kind: string; target: string }[];
  /** The breach that stopped the canary, as the gate saw it in the spans while it ran (or the rollback that ended it). */
  breach: string | null;
  boundary: {
    tasksOver: number;
    disallowedTools: string[];
    disallowedSideEffects: string[];
    costUsd: number;
    costOver: boolean;
    wallTimeSeconds: number;
    wallTimeOver: boolean;
  };
};

export type WeakEvidencePolicy = { accept: boolean; minConfidence: number };

export function findingOf(outcome: CanaryOutcome, weak: WeakEvidencePolicy): TaskFinding {
  const v = outcome.verification;
  switch (v.method) {
    case "destination":
      return v.matched ? "verified" : "wrong-outcome";
    case "judge":
    case "human":
      if (!weak.accept || v.confidence < weak.minConfidence) return "unverified";
      return v.verdict === "pass" ? "weakly-verified" : "wrong-outcome";
    case "unverified":
      return "unverified";
  }
}

export function summarizeCanary(run: CanaryRun | undefined, boundary: CanaryBoundary, weak: WeakEvidencePolicy): CanarySummary {
  const findings: CanarySummary["findings"] = { verified: [], "weakly-verified": [], "wrong-outcome": [], unverified: [] };
  const outcomes = run?.outcomes ?? [];
  const weakEvidence: CanarySummary["weakEvidence"] = [];
  const harmful: CanarySummary["harmful"] = [];
  const tools = new Set(boundary.allowedTools);
  const effects = new Set(boundary.allowedSideEffects);
  const disallowedTools = new Set<string>();
  const disallowedSideEffects = new Set<string>();
  let costUsd = 0;
  for (const o of outcomes) {
    const finding = findingOf(o, weak);
    findings[finding].push(o.taskId);
    const v = o.verification;
    if (v.method === "judge" || v.method === "human") {
      weakEvidence.push({ taskId: o.taskId, method: v.method, verdict: v.verdict, confidence: v.confidence, counted: finding === "weakly-verified" });
    }
    for (const t of o.toolsUsed) if (!tools.has(t)) disallowedTools.add(t);
    for (const e of o.sideEffects) {
      if (e.harmful) harmful.push({ taskId: o.taskId, kind: e.kind, target: e.target });
      if (!effects.has(e.kind)) disallowedSideEffects.add(e.kind);
    }
    costUsd += o.costUsd;
  }
  const wallTimeSeconds = run ? Math.max(0, (Date.parse(run.window.end) - Date.parse(run.window.start)) / 1000) : 0;
  return {
    status: outcomes.length > 0 ? "available" : "unavailable",
    environment: run?.environment ?? null,
    modelServer: run?.modelServer ?? null,
    tasks: outcomes.length,
    verified: findings.verified.length + findings["weakly-verified"].length,
    findings,
    weakEvidence,
    harmful,
    breach: run?.stop?.kind === "breach" || run?.stop?.kind === "rolled_back" ? run.stop.reason : null,
    boundary: {
      tasksOver: Math.max(0, outcomes.length - boundary.maxTasks),
      disallowedTools: [...disallowedTools].sort(),
      disallowedSideEffects: [...disallowedSideEffects].sort(),
      costUsd,
      costOver: costUsd > boundary.maxCostUsd,
      wallTimeSeconds,
      wallTimeOver: wallTimeSeconds > boundary.maxWallTimeSeconds,
    },
  };
}
