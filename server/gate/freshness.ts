// The stale-evidence rule: a check result holds only while the inputs it was computed against are unchanged
// (and, where the policy says so, while it is young enough).
import type { StaleReason } from "./checks/types";
import { DEFAULT_GATE_POLICY, type GatePolicy } from "./policy";
import type { Receipt } from "./receipt/view";
import { CHECK_IDS, CHECK_INPUTS, WIDENING_KEYS, type CheckId, type VersionKey, type VersionSet } from "./versions";

/** Admission checks read stages 2–3; after promotion to the canary, checks 6–7 are re-judged on the canary stage. */
export type CheckScope = "admission" | "canary-stage";
export const CANARY_STAGE_CHECKS = [6, 7] as const satisfies readonly CheckId[];

export type Recorded = { versions: VersionSet; computedAt: string } | null;

export function recordedFor(receipt: Receipt, check: CheckId, scope: CheckScope): Recorded {
  if (scope === "canary-stage") return receipt.canaryStage ? { versions: receipt.canaryStage.versions, computedAt: receipt.canaryStage.computedAt } : null;
  if (check === 2 || check === 3) return receipt.stage2 ? { versions: receipt.stage2.versions, computedAt: receipt.stage2.dataCutoff } : null;
  return receipt.stage3 ? { versions: receipt.stage3.versions, computedAt: receipt.stage3.computedAt } : null;
}

const LABELS: Partial<Record<VersionKey, string>> = {
  evaluator: "evaluator",
  taskDistribution: "task distribution",
  parent: "parent (approved default)",
  retryPolicy: "retry policy",
  modelServer: "model server",
};
const short = (s: string) => (s.length > 40 ? `${s.slice(0, 37)}…` : s);

function change(key: VersionKey, was: VersionSet, now: VersionSet): StaleReason | null {
  if ((WIDENING_KEYS as readonly VersionKey[]).includes(key)) {
    const [before, after] = [was[key] as string[], now[key] as string[]];
    const added = after.filter((x) => !before.includes(x)).sort();
    if (!added.length) return null;
    const noun = key === "permissions" ? "permission" : "destination";
    const sentence = `new ${noun}${added.length > 1 ? "s" : ""} ${added.join(", ")} not covered by this evidence`;
    return { input: key, recorded: [...before].sort().join(","), current: [...after].sort().join(","), sentence };
  }
  if (key === "toolContracts") {
    const tools = [...new Set([...Object.keys(was.toolContracts), ...Object.keys(now.toolContracts)])].sort();
    const changed = tools.filter((t) => was.toolContracts[t] !== now.toolContracts[t]);
    if (!changed.length) return null;
    return {
      input: key,
      recorded: JSON.stringify(was.toolContracts),
      current: JSON.stringify(now.toolContracts),
      sentence: `tool contract${changed.length > 1 ? "s" : ""} ${changed.join(", ")} changed`,
    };
  }
  const [a, b] = [was[key] as string, now[key] as string];
  if (a === b) return null;
  return { input: key, recorded: a, current: b, sentence: `${LABELS[key] ?? key} changed from ${short(a)} to ${short(b)}` };
}

type AgePolicy = Pick<GatePolicy, "maxEvidenceAgeSeconds">;

export function staleReasons(recorded: Recorded, check: CheckId, current: VersionSet, now: Date, policy: AgePolicy): StaleReason[] {
  if (!recorded) return [];
  const reasons = CHECK_INPUTS[check].map((key) => change(key, recorded.versions, current)).filter((r): r is StaleReason => r !== null);
  const maxAge = policy.maxEvidenceAgeSeconds[String(check) as keyof GatePolicy["maxEvidenceAgeSeconds"]];
  const age = (now.getTime() - Date.parse(recorded.computedAt)) / 1000;
  if (maxAge !== undefined && age > maxAge) {
    const sentence = `evidence is ${(age / 86400).toFixed(1)} days old (limit ${(maxAge / 86400).toFixed(1)})`;
    reasons.push({ input: "age", ageSeconds: age, maxAgeSeconds: maxAge, sentence });
  }
  return reasons;
}

/**
 * A rollout whose store state changed after the stage that judged it was sealed, and how (the database edge finds
 * them). Without `feeds`: an admitted rollout of stage 2 (checks 2 and 3). With it: a gate rollout (locked gate,
 * canary, rollback probe, canary stage) and the checks it fed, with the sentence that says what came when.
 */
export type LateEvidence = { rolloutId: string; change: string; feeds?: { scope: CheckScope; checks: readonly CheckId[] }; sentence?: string };
/** The checks that read stage 2's rollups: their evidence is stale while an admitted rollout has moved on. */
export const STAGE2_CHECKS = [2, 3] as const satisfies readonly CheckId[];

function lateEvidenceReason(late: readonly LateEvidence[]): StaleReason {
  const named = late.slice(0, 3).map((l) => `${l.rolloutId} (${l.change})`).join(", ");
  const more = late.length > 3 ? ` and ${late.length - 3} more` : "";
  const sentence = `${late.length} admitted rollout${late.length > 1 ? "s" : ""} changed after stage 2 was sealed: ${named}${more}`;
  return { input: "late-evidence", rollouts: late.map((l) => l.rolloutId), sentence };
}

function gateLateReason(late: readonly LateEvidence[]): StaleReason {
  const said = late.slice(0, 3).map((l) => l.sentence ?? `late evidence: ${l.change} for ${l.rolloutId}`);
  const more = late.length > 3 ? `; and ${late.length - 3} more` : "";
  return { input: "late-evidence", rollouts: late.map((l) => l.rolloutId), sentence: `${said.join("; ")}${more}` };
}

export type StaleCheck = { check: CheckId; scope: CheckScope; reasons: StaleReason[] };
export type Freshness = { fresh: boolean; stale: StaleCheck[] };

/** Lists every check whose evidence went stale, and why. Checks with no recorded evidence are not stale (they are unavailable). */
export function isFresh(receipt: Receipt, currentVersions: VersionSet, now: Date, policy: AgePolicy = DEFAULT_GATE_POLICY, late: readonly LateEvidence[] = []): Freshness {
  const stale: StaleCheck[] = [];
  const scopes: [CheckScope, readonly CheckId[]][] = [["admission", CHECK_IDS]];
  if (receipt.canaryStage) scopes.push(["canary-stage", CANARY_STAGE_CHECKS]);
  for (const [scope, checks] of scopes) {
    for (const check of checks) {
      const recorded = recordedFor(receipt, check, scope);
      const reasons = staleReasons(recorded, check, currentVersions, now, policy);
      const admitted = late.filter((l) => !l.feeds);
      if (recorded && admitted.length && scope === "admission" && (STAGE2_CHECKS as readonly CheckId[]).includes(check)) reasons.push(lateEvidenceReason(admitted));
      const fed = late.filter((l) => l.feeds?.scope === scope && l.feeds.checks.includes(check));
      if (recorded && fed.length) reasons.push(gateLateReason(fed));
      if (reasons.length) stale.push({ check, scope, reasons });
    }
  }
  return { fresh: stale.length === 0, stale };
}
