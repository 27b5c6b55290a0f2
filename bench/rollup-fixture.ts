// The bench receipts' stage 2: 10,000 rollouts / 1,000,000 spans' worth of per-rollout rollups.
import type { RolloutRollup } from "@/server/gate/receipt/stage2";
import { T0 } from "@/server/gate/reference/common";

export const ROLLOUTS = 10_000;
export const SPANS_PER_ROLLOUT = 100;
// How 100 spans of one rollout split over the declared families (plus one undeclared family).
const MIX: [string, number][] = [["llm.call", 40], ["tool.call:lookup_ticket", 25], ["tool.call:update_ticket", 25], ["agentlightning.message", 9], ["reward", 1]];

/** `defects`: 1% of rollouts lose their update_ticket spans and 0.5% needed an infrastructure retry. */
export function rollups(defects: boolean): RolloutRollup[] {
  return Array.from({ length: ROLLOUTS }, (_, i) => {
    const families: Record<string, number> = Object.fromEntries(MIX);
    if (defects && i % 100 === 7) {
      families["agentlightning.message"]! += families["tool.call:update_ticket"]!;
      delete families["tool.call:update_ticket"];
    }
    // 5% ran twice; the 100 spans are split over the two attempts.
    const second = i % 20 === 0 ? (defects && i % 200 === 0 ? "retry_after_timeout" : "expected_resample") : null;
    const attempt = (n: number, reason: RolloutRollup["attempts"][number]["reason"], f: Record<string, number>) =>
      ({ attemptId: `at-${i}-${n}`, sequenceId: n, status: "succeeded" as const, workerId: `Worker-${n}`, startTime: T0 + i, endTime: T0 + i + 5, reason, families: f });
    const attempts = second
      ? [attempt(1, "first", { "llm.call": 20, "tool.call:lookup_ticket": 15, reward: 1 }), attempt(2, second, { ...families, "llm.call": 20, "tool.call:lookup_ticket": 10, "agentlightning.message": families["agentlightning.message"]! - 1 })]
      : [attempt(1, "first", families)];
    return { rolloutId: `ro-${i.toString(16).padStart(12, "0")}`, mode: "train" as const, status: "succeeded" as const, attempts, reward: 0.5 + 0.3 * Math.sin(i / 500), endTime: T0 + i + 10 };
  });
}

