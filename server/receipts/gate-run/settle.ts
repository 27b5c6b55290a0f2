// Evidence is closed before it is judged. Each task's result records the store state of its rollout it was
// computed from (attempt count, span count, highest span sequence id, status, end): its "source". While a stage
// settles, a rollout whose state moved on (a span flushed after the attempt finished, a new attempt) is judged
// again and the settle window starts over; the stage seals only once all its rollouts ended and the window
// passed with nothing new. After the seal, the same comparison names late evidence (late-evidence.ts).
import type { Database } from "@/server/db/client";
import type { GateRunContext } from "./context";
import { recordAgain } from "./judge";
import { movedTasks } from "./sources";
import { readTasks, type TaskRow } from "./tasks";

/**
 * Judges again the done tasks whose rollout moved on (a late span, a new attempt); a rollout running again goes
 * back to pending. Returns how many moved: the settle window starts over when any did.
 */
export async function rejudgeMoved(database: Database, ctx: GateRunContext, tasks: readonly TaskRow[]): Promise<number> {
  const moved = await movedTasks(database.db, tasks);
  if (moved.length === 0) return 0;
  const reads = await readTasks(database, moved.map((m) => m.task));
  await recordAgain(database, ctx, reads);
  return moved.length;
}

export type Settling = { stage: "collecting" | "canary"; since: string };

/**
 * Whether a stage whose rollouts have all ended is closed: `settleSeconds` passed since they ended or since the
 * last thing that moved (`moved` > 0 now restarts the window). `wrote`: the run's state must be written.
 */
export function settle(current: Settling | undefined, stage: Settling["stage"], moved: number, now: Date, settleSeconds: number): { settling: Settling; closed: boolean; wrote: boolean } {
  if (!current || current.stage !== stage || moved > 0) return { settling: { stage, since: now.toISOString() }, closed: settleSeconds <= 0 && moved === 0, wrote: true };
  return { settling: current, closed: now.getTime() - Date.parse(current.since) >= settleSeconds * 1000, wrote: false };
}
