// The wire types of Agent Lightning 0.3's LightningStore (agentlightning/types/core.py, tracer.py,
// resources.py), in snake_case as they travel over /v1/agl. Times are float epoch seconds.

export const ROLLOUT_STATUSES = ["queuing", "preparing", "running", "failed", "succeeded", "cancelled", "requeuing"] as const;
export const ATTEMPT_STATUSES = ["preparing", "running", "failed", "succeeded", "unresponsive", "timeout"] as const;
export const WORKER_STATUSES = ["idle", "busy", "unknown"] as const;
export const ROLLOUT_MODES = ["train", "val", "test"] as const;
/** Why an attempt was started; the gate counts unexpected retries from it ("retry debt"). */
export const ATTEMPT_REASONS = [
  "first",
  "expected_resample",
  "retry_after_failed",
  "retry_after_timeout",
  "retry_after_unresponsive",
  "manual",
] as const;

export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];
export type WorkerStatus = (typeof WORKER_STATUSES)[number];
export type RolloutMode = (typeof ROLLOUT_MODES)[number];
export type AttemptReason = (typeof ATTEMPT_REASONS)[number];

export const TERMINAL_ROLLOUT_STATUSES: readonly RolloutStatus[] = ["failed", "succeeded", "cancelled"];
export const QUEUE_STATUSES: readonly RolloutStatus[] = ["queuing", "requeuing"];

/** Metadata key with which a rollout declares its planned attempts (attempts 2..n are expected resamples). */
export const EXPECTED_ATTEMPTS_KEY = "lightgate.expected_attempts";
/** Metadata key naming the receipt whose training a rollout belongs to (copied into store_rollouts.receipt_tag). */
export const RECEIPT_TAG_KEY = "lightgate.receipt";
export const RECEIPT_TAG_MAX = 64;
/** Metadata keys naming the agent a rollout serves and the gate phase it belongs to (none: training);
 * copied into store_rollouts.agent / .phase, which decide who may see and serve it. */
export const AGENT_KEY = "lightgate.agent";
export const PHASE_KEY = "lightgate.phase";
export { GATE_PHASES, isGatePhase, SERVE_PHASES, type GatePhase, type ServePhase } from "@/lib/store/phases";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type RolloutConfig = {
  timeout_seconds: number | null;
  unresponsive_seconds: number | null;
  max_attempts: number;
  retry_condition: AttemptStatus[];
};

export type Rollout = {
  rollout_id: string;
  input: Json;
  start_time: number;
  end_time: number | null;
  mode: RolloutMode | null;
  resources_id: string | null;
  status: RolloutStatus;
  config: RolloutConfig;
  metadata: JsonObject | null;
};

export type Attempt = {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  start_time: number;
  end_time: number | null;
  status: AttemptStatus;
  worker_id: string | null;
  last_heartbeat_time: number | null;
  metadata: JsonObject | null;
};

/** Lightgate's extension: the attempt with the reason it was started (not on the wire). */
export type AttemptRecord = Attempt & { reason: AttemptReason };

export type AttemptedRollout = Rollout & { attempt: Attempt };

export type EnqueueRolloutRequest = {
  input: Json;
  mode?: RolloutMode | null;
  resources_id?: string | null;
  config?: Partial<RolloutConfig> | null;
  metadata?: JsonObject | null;
};

export type Worker = {
  worker_id: string;
  status: WorkerStatus;
  heartbeat_stats: JsonObject | null;
  last_heartbeat_time: number | null;
  last_dequeue_time: number | null;
  last_busy_time: number | null;
  last_idle_time: number | null;
  current_rollout_id: string | null;
  current_attempt_id: string | null;
};

export type NamedResources = { [name: string]: JsonObject };

export type ResourcesUpdate = {
  resources_id: string;
  create_time: number;
  update_time: number;
  version: number;
  resources: NamedResources;
};

/** Lightgate's extension: one pinned version of a resources id with its content digest. */
export type ResourcesVersion = { resources_id: string; version: number; digest: string; created_at: number; resources: NamedResources };

export type SpanContext = { trace_id: string; span_id: string; is_remote: boolean; trace_state: Record<string, string> } & JsonObject;

/** A span as stored and served: the known fields plus any extra keys the producer sent. */
export type Span = JsonObject & {
  rollout_id: string;
  attempt_id: string;
  sequence_id: number;
  trace_id: string;
  span_id: string;
  parent_id: string | null;
  name: string;
  status: { status_code: "UNSET" | "OK" | "ERROR"; description?: string | null } & JsonObject;
  attributes: JsonObject;
  events: Json[];
  links: Json[];
  start_time: number | null;
  end_time: number | null;
  context: SpanContext | null;
  parent: SpanContext | null;
  resource: { attributes: JsonObject; schema_url: string } & JsonObject;
};

export type PaginatedResult<T> = { items: T[]; limit: number; offset: number; total: number };

export type SortOrder = "asc" | "desc";
export type FilterLogic = "and" | "or";
export type Page = { limit?: number; offset?: number; sort_by?: string | null; sort_order?: SortOrder };

export type StoreStatistics = {
  name: string;
  total_rollouts: number;
  total_attempts: number;
  total_spans: number;
  total_resources: number;
  total_workers: number;
  uptime: number;
  rollouts_by_status: Partial<Record<RolloutStatus, number>>;
};
