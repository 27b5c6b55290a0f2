// Request bodies and query strings of /v1/agl, validated with zod. Shapes follow agentlightning's pydantic
// models (store/client_server.py, types/*.py); a refusal names the field (FastAPI-style `loc`).
import { z } from "zod";
import { ATTEMPT_STATUSES, ROLLOUT_MODES, ROLLOUT_STATUSES, WORKER_STATUSES } from "../types";

const noNul = (s: string) => !s.includes("\u0000");
/** Ids and names end up in indexed text columns: bounded, and no NUL (PostgreSQL text cannot hold it). */
export const idString = z.string().min(1, "must not be empty").max(512, "must be at most 512 characters").refine(noNul, "must not contain NUL characters");
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine(noNul, "must not contain NUL characters");
const INT32_MAX = 2 ** 31 - 1;
// Numbers are bounded to what they mean (zod already refuses NaN, ±Infinity — JSON's 1e400 — and unsafe
// integers); a refusal is the 422 naming the field. The reference takes any float here, but its clients
// send small durations and `time.time()`, which these bounds keep.
/** A duration: 0 up to ~31 years (null, not a huge number, means "no limit"). */
const MAX_SECONDS = 1e9;
const seconds = z.number().min(0, "must be ≥ 0").max(MAX_SECONDS, `must be ≤ ${MAX_SECONDS} seconds; use null for no limit`).nullable().optional();
/** A point in time as epoch seconds, up to the year 9999: refuses negatives and milli/nanosecond stamps. */
const MAX_EPOCH_SECONDS = 253_402_300_799;
const epochSeconds = z.number().min(0, "must be ≥ 0 (epoch seconds)").max(MAX_EPOCH_SECONDS, `must be epoch seconds (≤ ${MAX_EPOCH_SECONDS}, the year 9999), not milli- or nanoseconds`);
const jsonObject = z.record(z.string(), z.unknown());

export const rolloutMode = z.enum(ROLLOUT_MODES);
export const rolloutStatus = z.enum(ROLLOUT_STATUSES);
export const attemptStatus = z.enum(ATTEMPT_STATUSES);
export const workerStatus = z.enum(WORKER_STATUSES);

export const rolloutConfig = z.object({
  timeout_seconds: seconds,
  unresponsive_seconds: seconds,
  max_attempts: z.number().int("must be an integer").min(1, "must be ≥ 1").max(INT32_MAX).optional(),
  retry_condition: z.array(attemptStatus).max(16).optional(),
});

const requireInput = <T extends z.ZodType>(schema: T) =>
  schema.superRefine((v, ctx) => {
    if (typeof v === "object" && v !== null && !("input" in v)) ctx.addIssue({ code: "custom", path: ["input"], message: "Field required" });
  });

const rolloutFields = {
  input: z.unknown(),
  mode: rolloutMode.nullable().optional(),
  resources_id: idString.nullable().optional(),
  config: rolloutConfig.nullable().optional(),
  metadata: jsonObject.nullable().optional(),
};
export const enqueueRequest = requireInput(z.object(rolloutFields));
export const enqueueBody = z.object({ rollouts: z.array(enqueueRequest).max(10_000, "at most 10,000 rollouts per request") });
export const startRolloutBody = requireInput(z.object({ ...rolloutFields, worker_id: idString.nullable().optional() }));
export const dequeueBody = z.object({
  limit: z.number().int("must be an integer").min(0, "must be ≥ 0 (0 dequeues nothing)").max(10_000, "must be ≤ 10000").optional(),
  worker_id: idString.nullable().optional(),
});
export const startAttemptBody = z.object({ worker_id: idString.nullable().optional() });

/** Keys that may be null in update_rollout (null clears them); status and config may not (400). */
export const updateRolloutBody = z.object({
  input: z.unknown().optional(),
  mode: rolloutMode.nullable().optional(),
  resources_id: idString.nullable().optional(),
  status: rolloutStatus.nullable().optional(),
  config: rolloutConfig.nullable().optional(),
  metadata: jsonObject.nullable().optional(),
});

export const updateAttemptBody = z.object({
  status: attemptStatus.nullable().optional(),
  worker_id: z.string().max(512).refine(noNul, "must not contain NUL characters").nullable().optional(),
  last_heartbeat_time: epochSeconds.nullable().optional(),
  metadata: jsonObject.nullable().optional(),
});

export const updateWorkerBody = z.object({ heartbeat_stats: jsonObject.nullable().optional() });
export const waitBody = z.object({ rollout_ids: z.array(idString).max(100_000), timeout: seconds });
export const nextSequenceBody = z.object({ rollout_id: idString, attempt_id: idString });

const spanContext = z.looseObject({ trace_id: text(256), span_id: text(256), is_remote: z.boolean().optional(), trace_state: z.record(z.string(), z.unknown()).optional() });

/** A Span (extra="allow": unknown keys are kept). Fields the reference requires but may be null default to null. */
export const spanBody = z.looseObject({
  rollout_id: idString,
  attempt_id: idString,
  sequence_id: z.number().int("must be an integer").min(0, "must be ≥ 0").max(INT32_MAX, `must be ≤ ${INT32_MAX}`),
  trace_id: text(256),
  span_id: idString.max(256),
  parent_id: text(256).nullable().default(null),
  name: text(4096),
  status: z.looseObject({ status_code: z.enum(["UNSET", "OK", "ERROR"]), description: z.string().nullable().optional() }).default({ status_code: "UNSET", description: null }),
  attributes: jsonObject.default({}),
  events: z.array(z.looseObject({ name: z.string(), attributes: jsonObject.default({}), timestamp: epochSeconds.nullable().optional() })).default([]),
  links: z.array(z.looseObject({ context: spanContext, attributes: jsonObject.nullable().optional() })).default([]),
  start_time: epochSeconds.nullable().default(null),
  end_time: epochSeconds.nullable().default(null),
  context: spanContext.nullable().default(null),
  parent: spanContext.nullable().default(null),
  resource: z.looseObject({ attributes: jsonObject.default({}), schema_url: z.string().default("") }).default({ attributes: {}, schema_url: "" }),
});

const llm = z.object({
  resource_type: z.literal("llm"),
  endpoint: z.string(),
  model: z.string(),
  api_key: z.string().nullable().default(null),
  sampling_parameters: jsonObject.default({}),
});
const proxyLlm = llm.extend({ resource_type: z.literal("proxy_llm") });
const promptTemplate = z.object({ resource_type: z.literal("prompt_template"), template: z.string(), engine: z.enum(["jinja", "f-string", "poml"]) });
export const namedResources = z.record(text(512), z.discriminatedUnion("resource_type", [llm, proxyLlm, promptTemplate]));

// ── Queries (GET query strings or POST …/search bodies) ──
// -1 (no limit) or ≥ 1, and offsets ≥ 0, are the reference's own 400s (query.ts `checkPage`).
const limit = z.number().int("must be an integer").optional();
const offset = z.number().int("must be an integer").optional();
const sortOrder = z.enum(["asc", "desc"]).optional();
const filterLogic = z.enum(["and", "or"]).optional();
const sortBy = z.string().max(128).nullable().optional();

export const rolloutQuery = z.object({
  status_in: z.array(rolloutStatus).nullable().optional(),
  rollout_id_in: z.array(idString).max(10_000).nullable().optional(),
  rollout_id_contains: text(512).nullable().optional(),
  mode_in: z.array(rolloutMode.nullable()).nullable().optional(),
  limit,
  offset,
  sort_by: sortBy,
  sort_order: sortOrder,
  filter_logic: filterLogic,
});
export const attemptQuery = z.object({ limit, offset, sort_by: sortBy, sort_order: sortOrder });
export const workerQuery = z.object({
  status_in: z.array(workerStatus).nullable().optional(),
  worker_id_contains: text(512).nullable().optional(),
  limit,
  offset,
  sort_by: sortBy,
  sort_order: sortOrder,
  filter_logic: filterLogic,
});
export const resourcesQuery = z.object({ resources_id: text(512).nullable().optional(), resources_id_contains: text(512).nullable().optional(), limit, offset, sort_by: sortBy, sort_order: sortOrder });
const opt = text(512).nullable().optional();
export const spanQuery = z.object({
  rollout_id: idString,
  attempt_id: opt,
  trace_id: opt,
  trace_id_contains: opt,
  span_id: opt,
  span_id_contains: opt,
  parent_id: opt,
  parent_id_contains: opt,
  name: text(4096).nullable().optional(),
  name_contains: text(4096).nullable().optional(),
  filter_logic: filterLogic,
  limit,
  offset,
  sort_by: sortBy,
  sort_order: sortOrder,
});

/** Query-string keys that repeat into lists (`?status_in=a&status_in=b`). */
export const LIST_PARAMS = new Set(["status_in", "rollout_id_in", "mode_in"]);
/** Query-string keys that are integers. */
export const INT_PARAMS = new Set(["limit", "offset"]);
