"use client";

// The reward during training, candidate beside its exact parent: each side's per-rollout final reward (raw
// faint, debiased EMA bold) and both locked-gate means as dashed reference lines. Hovering reads out the
// rollout and both series' values. A parent without a judged receipt has no curve, and the card says so.
import { CurveChart } from "@/components/charts/curve-chart";
import { Card } from "@/components/ui/card";
import { parentAbsence } from "@/lib/candidates/side-by-side";
import { ParentAbsent, type ParentSide } from "./side-cells";
import type { GateReportView } from "./types";

type Evidence = GateReportView["evidence"];

const PARENT_COLOR = "var(--lg-ink-3)";
const CANDIDATE_COLOR = "var(--lg-accent)";

export function RewardCard({ evidence, parent }: { evidence: Evidence; parent: ParentSide }) {
  const { rewards, comparison } = evidence;
  const absence = parentAbsence(parent);
  const points = rewards.points.map((p, i) => ({ x: i + 1, y: p.y }));
  const parentPoints = parent.evidence?.rewards.points.map((p, i) => ({ x: i + 1, y: p.y })) ?? [];
  const references = [
    ...(comparison.parentMean !== null ? [{ y: comparison.parentMean, label: `parent locked gate ${comparison.parentMean.toFixed(3)}`, color: PARENT_COLOR }] : []),
    ...(comparison.candidateMean !== null ? [{ y: comparison.candidateMean, label: `candidate locked gate ${comparison.candidateMean.toFixed(3)}`, color: CANDIDATE_COLOR }] : []),
  ];
  const series = [{ name: "candidate reward", points, color: CANDIDATE_COLOR }, ...(parentPoints.length ? [{ name: "parent reward", points: parentPoints, color: PARENT_COLOR }] : [])];
  const level = comparison.parentMean === null ? "" : "; the parent's level on this locked gate is the dashed grey line";
  const parentNote = absence ? "" : parentPoints.length ? "The parent's own training curve (grey) from its receipt. " : `The parent's receipt records no rewards, so it has no curve${level}. `;
  const missing = rewards.missingReward ? `${rewards.missingReward} finished candidate rollouts recorded no reward.` : "";
  return (
    <Card title="Reward during training" description={`Final reward of each finished rollout, by rollout in time order (raw faint, debiased EMA bold). ${parentNote}${missing}`}>
      <ParentAbsent sentence={absence && `${absence} Only the candidate's curve is drawn${level}.`} />
      {points.length ? (
        <CurveChart series={series} references={references} xLabel="rollout" height={220} />
      ) : (
        <p className="text-sm text-unavailable">No rewards recorded: unavailable.</p>
      )}
    </Card>
  );
}
