// The LightningStore state machine (agentlightning store/utils.py, collection_based.py) as pure functions,
// plus Lightgate's attempt reasons. No database here: the programs in this folder call these.
import {
  AGENT_KEY,
  EXPECTED_ATTEMPTS_KEY,
  PHASE_KEY,
  RECEIPT_TAG_KEY,
  RECEIPT_TAG_MAX,
  QUEUE_STATUSES,
  TERMINAL_ROLLOUT_STATUSES,
  type AttemptReason,
  type AttemptStatus,
  type JsonObject,
  type RolloutStatus,
  type WorkerStatus,
} from "./types";

export const isTerminal = (s: RolloutStatus) => TERMINAL_ROLLOUT_STATUSES.includes(s);
export const isQueued = (s: RolloutStatus) => QUEUE_STATUSES.includes(s);

export type RetryPolicy = { max_attempts: number; retry_condition: readonly AttemptStatus[] };

/** The rollout status implied by its latest attempt's status (`rollout_status_from_attempt`). */
export function rolloutStatusFromAttempt(status: AttemptStatus, sequenceId: number, policy: RetryPolicy): RolloutStatus {
  if (status === "preparing" || status === "running" || status === "succeeded") return status;
  if (policy.retry_condition.includes(status) && sequenceId < policy.max_attempts) return "requeuing";
  return "failed";
}

/** Requeue causes recorded on the rollout; they become the next attempt's reason. */
export type RequeueCause = Extract<AttemptReason, "retry_after_failed" | "retry_after_timeout" | "retry_after_unresponsive" | "manual">;

export function requeueCauseFor(status: AttemptStatus): RequeueCause {
  if (status === "timeout") return "retry_after_timeout";
  if (status === "unresponsive") return "retry_after_unresponsive";
  return "retry_after_failed";
}

/**
 * Why attempt `sequenceId` starts. Attempt 1 is the first try; attempts 2..expectedAttempts were planned
 * (resamples the rollout declared up front); any later one is a retry for the cause that requeued the
 * rollout, or manual (start_attempt, or a requeue through update_rollout).
 */
export function attemptReason(sequenceId: number, expectedAttempts: number, cause: RequeueCause | null): AttemptReason {
  if (sequenceId <= 1) return "first";
  if (sequenceId <= expectedAttempts) return "expected_resample";
  return cause ?? "manual";
}

/** metadata["lightgate.expected_attempts"] as a positive integer, 1 when absent or not usable. */
export function expectedAttemptsFrom(metadata: JsonObject | null | undefined): number {
  const raw = metadata?.[EXPECTED_ATTEMPTS_KEY];
  const n = typeof raw === "string" ? Number(raw) : raw;
  return typeof n === "number" && Number.isInteger(n) && n >= 1 ? Math.min(n, 1_000_000) : 1;
}

function shortStringAt(metadata: JsonObject | null | undefined, key: string): string | null {
  if (!metadata || !Object.hasOwn(metadata, key)) return null;
  const value = metadata[key];
  return typeof value === "string" && value.length > 0 && value.length <= RECEIPT_TAG_MAX ? value : null;
}

/** metadata["lightgate.receipt"] when it is a non-empty string of at most 64 characters, else null. */
export const receiptTagFrom = (metadata: JsonObject | null | undefined) => shortStringAt(metadata, RECEIPT_TAG_KEY);
/** metadata["lightgate.agent"] (same rule): the agent whose runners serve the rollout. */
export const agentFrom = (metadata: JsonObject | null | undefined) => shortStringAt(metadata, AGENT_KEY);
/** metadata["lightgate.phase"] (same rule): a gate phase, or null for a training rollout. */
export const phaseFrom = (metadata: JsonObject | null | undefined) => shortStringAt(metadata, PHASE_KEY);

export type WorkerPatch = {
  status: WorkerStatus;
  current_rollout_id: string | null;
  current_attempt_id: string | null;
  last_busy_time?: number;
  last_idle_time?: number;
};

/** How a worker follows the attempt it runs (`_unlocked_sync_worker_with_attempt`). */
export function workerPatchForAttempt(status: AttemptStatus, rolloutId: string, attemptId: string, now: number): WorkerPatch {
  if (status === "succeeded" || status === "failed") return { status: "idle", current_rollout_id: null, current_attempt_id: null, last_idle_time: now };
  if (status === "timeout" || status === "unresponsive") return { status: "unknown", current_rollout_id: null, current_attempt_id: null, last_idle_time: now };
  return { status: "busy", current_rollout_id: rolloutId, current_attempt_id: attemptId, last_busy_time: now };
}

export type WatchdogInput = {
  now: number;
  timeout_seconds: number | null;
  unresponsive_seconds: number | null;
  attempt_start_time: number;
  last_heartbeat_time: number | null;
};

/** The watchdog's verdict for a preparing/running rollout's latest attempt (`scan_unhealthy_rollouts`). */
export function watchdogVerdict(a: WatchdogInput): "timeout" | "unresponsive" | null {
  if (a.timeout_seconds !== null && a.now - a.attempt_start_time > a.timeout_seconds) return "timeout";
  if (a.unresponsive_seconds !== null) {
    const since = a.last_heartbeat_time ?? a.attempt_start_time;
    if (a.now - since > a.unresponsive_seconds) return "unresponsive";
  }
  return null;
}
