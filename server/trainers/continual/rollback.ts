// Rollback on a performance drop, as a decision the gate routes — never an edit of the approved
// default. After an update, the monitored score of the new weights is compared with the last accepted
// ones: a drop beyond the tolerance proposes going back to that exact resource; otherwise the update
// is offered as a new candidate (which the gate then judges like any other).
import type { Digest } from "@/server/digest";

export type RollbackDecision =
  | { action: "new-candidate"; candidate: Digest; parent: Digest; before: number; after: number; reason: string }
  | { action: "propose-rollback"; to: Digest; from: Digest; before: number; after: number; reason: string };

export function decideAfterUpdate(o: { accepted: Digest; candidate: Digest; before: number; after: number; tolerance: number; metric: string }): RollbackDecision {
  const drop = o.before - o.after;
  const fmt = (v: number) => v.toFixed(4);
  if (drop > o.tolerance) {
    return {
      action: "propose-rollback",
      to: o.accepted,
      from: o.candidate,
      before: o.before,
      after: o.after,
      reason: `${o.metric} fell from ${fmt(o.before)} to ${fmt(o.after)} (−${fmt(drop)}, tolerance ${fmt(o.tolerance)}): return to ${o.accepted}`,
    };
  }
  return { action: "new-candidate", candidate: o.candidate, parent: o.accepted, before: o.before, after: o.after, reason: `${o.metric} ${fmt(o.before)} → ${fmt(o.after)}` };
}
