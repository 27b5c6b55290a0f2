// Database rows ↔ wire objects. Rows come from the hand-written SQL in this folder (snake_case columns).
import type { Attempt, AttemptReason, AttemptRecord, AttemptStatus, Json, JsonObject, Rollout, RolloutConfig, RolloutMode, RolloutStatus, Worker, WorkerStatus } from "./types";

export const ROLLOUT_COLUMNS = "rollout_id, input, start_time, end_time, mode, resources_id, status, config, metadata";
export const ATTEMPT_COLUMNS = "rollout_id, attempt_id, sequence_id, start_time, end_time, status, worker_id, last_heartbeat_time, metadata, reason";
export const WORKER_COLUMNS =
  "worker_id, status, heartbeat_stats, last_heartbeat_time, last_dequeue_time, last_busy_time, last_idle_time, current_rollout_id, current_attempt_id";

export type RolloutRow = {
  rollout_id: string;
  input: string;
  start_time: number;
  end_time: number | null;
  mode: string | null;
  resources_id: string | null;
  status: string;
  config: string;
  metadata: string | null;
};

export type AttemptRow = {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  start_time: number;
  end_time: number | null;
  status: string;
  worker_id: string | null;
  last_heartbeat_time: number | null;
  metadata: string | null;
  reason: string;
};

export type WorkerRow = {
  worker_id: string;
  status: string;
  heartbeat_stats: string | null;
  last_heartbeat_time: number | null;
  last_dequeue_time: number | null;
  last_busy_time: number | null;
  last_idle_time: number | null;
  current_rollout_id: string | null;
  current_attempt_id: string | null;
};

const parse = <T = Json>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function rolloutFromRow(r: RolloutRow): Rollout {
  return {
    rollout_id: r.rollout_id,
    input: parse(r.input),
    start_time: Number(r.start_time),
    end_time: num(r.end_time),
    mode: r.mode as RolloutMode | null,
    resources_id: r.resources_id,
    status: r.status as RolloutStatus,
    config: JSON.parse(r.config) as RolloutConfig,
    metadata: parse<JsonObject>(r.metadata),
  };
}

export function attemptRecordFromRow(r: AttemptRow): AttemptRecord {
  return { ...attemptFromRow(r), reason: r.reason as AttemptReason };
}

export function attemptFromRow(r: AttemptRow): Attempt {
  return {
    rollout_id: r.rollout_id,
    attempt_id: r.attempt_id,
    sequence_id: Number(r.sequence_id),
    start_time: Number(r.start_time),
    end_time: num(r.end_time),
    status: r.status as AttemptStatus,
    worker_id: r.worker_id,
    last_heartbeat_time: num(r.last_heartbeat_time),
    metadata: parse<JsonObject>(r.metadata),
  };
}

export function workerFromRow(r: WorkerRow): Worker {
  return {
    worker_id: r.worker_id,
    status: r.status as WorkerStatus,
    heartbeat_stats: parse<JsonObject>(r.heartbeat_stats),
    last_heartbeat_time: num(r.last_heartbeat_time),
    last_dequeue_time: num(r.last_dequeue_time),
    last_busy_time: num(r.last_busy_time),
    last_idle_time: num(r.last_idle_time),
    current_rollout_id: r.current_rollout_id,
    current_attempt_id: r.current_attempt_id,
  };
}

/** The wire object for an attempt record (drops Lightgate's `reason`). */
export function wireAttempt(a: AttemptRecord): Attempt {
  const { reason: _reason, ...attempt } = a;
  return attempt;
}
