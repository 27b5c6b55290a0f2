/* eslint-disable @typescript-eslint/no-explicit-any -- the wire JSON is untyped, as for the Python client; tests assert on it */
// A TypeScript stand-in for agentlightning 0.3's LightningStoreClient (store/client_server.py): the same
// routes, payloads and parsing rules (an item is an AttemptedRollout iff it has an "attempt" key), so a
// suite can play the Python client's calls against our server over real HTTP.
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}: ${JSON.stringify(body)}`);
  }
}

type Json = unknown;
const UNSET = Symbol("UNSET");
export type Unset = typeof UNSET;
export { UNSET };

export class AglClient {
  constructor(
    readonly root: string,
    readonly headers: Record<string, string> = {},
  ) {}

  async request(method: "GET" | "POST", path: string, opts: { json?: Json; params?: [string, unknown][] } = {}): Promise<Json> {
    const url = new URL(`${this.root}/v1/agl${path}`);
    for (const [k, v] of opts.params ?? []) url.searchParams.append(k, String(v));
    const res = await fetch(url, {
      method,
      headers: { ...this.headers, ...(opts.json !== undefined ? { "content-type": "application/json" } : {}) },
      body: opts.json !== undefined ? JSON.stringify(opts.json) : undefined,
    });
    const text = await res.text();
    const body = text ? JSON.parse(text) : null;
    if (!res.ok) throw new HttpStatusError(res.status, body);
    return body;
  }

  health = () => this.request("GET", "/health");
  statistics = () => this.request("GET", "/statistics") as Promise<Record<string, unknown>>;
  startRollout = (input: Json, o: { mode?: string | null; resources_id?: string | null; config?: Json; metadata?: Json; worker_id?: string | null } = {}) =>
    this.request("POST", "/rollouts", { json: { input, mode: o.mode ?? null, resources_id: o.resources_id ?? null, config: o.config ?? null, metadata: o.metadata ?? null, worker_id: o.worker_id ?? null } }) as Promise<any>;
  enqueueRollout = async (input: Json, o: { mode?: string | null; resources_id?: string | null; config?: Json; metadata?: Json } = {}) =>
    ((await this.enqueueMany([{ input, ...o }])) as any[])[0];
  enqueueMany = (rollouts: { input: Json; mode?: string | null; resources_id?: string | null; config?: Json; metadata?: Json }[]) =>
    this.request("POST", "/queues/rollouts/enqueue", {
      json: { rollouts: rollouts.map((r) => ({ input: r.input, mode: r.mode ?? null, resources_id: r.resources_id ?? null, config: r.config ?? null, metadata: r.metadata ?? null })) },
    }) as Promise<any[]>;
  /** The client swallows every dequeue error and returns [] (quirk a). */
  dequeueMany = async (limit: number, workerId?: string): Promise<any[]> => {
    if (limit <= 0) return [];
    try {
      return (await this.request("POST", "/queues/rollouts/dequeue", { json: workerId !== undefined ? { limit, worker_id: workerId } : { limit } })) as any[];
    } catch {
      return [];
    }
  };
  dequeue = async (workerId?: string) => (await this.dequeueMany(1, workerId))[0] ?? null;
  startAttempt = (rid: string, workerId?: string) => this.request("POST", `/rollouts/${rid}/attempts`, { json: workerId !== undefined ? { worker_id: workerId } : undefined }) as Promise<any>;
  queryRollouts = (p: { status_in?: string[]; rollout_id_in?: string[]; rollout_id_contains?: string; filter_logic?: string; sort_by?: string; sort_order?: string; limit?: number; offset?: number } = {}) => {
    const payload: Record<string, unknown> = { limit: p.limit ?? -1, offset: p.offset ?? 0 };
    if (p.status_in) payload.status_in = p.status_in;
    if (p.rollout_id_in) payload.rollout_id_in = p.rollout_id_in;
    if (p.rollout_id_contains !== undefined) payload.rollout_id_contains = p.rollout_id_contains;
    payload.filter_logic = p.filter_logic ?? "and";
    if (p.sort_by) Object.assign(payload, { sort_by: p.sort_by, sort_order: p.sort_order ?? "asc" });
    return this.request("POST", "/rollouts/search", { json: payload }) as Promise<any>;
  };
  queryAttempts = (rid: string, p: { sort_by?: string; sort_order?: string; limit?: number; offset?: number } = {}) =>
    this.request("POST", `/rollouts/${rid}/attempts/search`, { json: { limit: p.limit ?? -1, offset: p.offset ?? 0, sort_by: p.sort_by ?? "sequence_id", sort_order: p.sort_order ?? "asc" } }) as Promise<any>;
  getLatestAttempt = (rid: string) => this.request("GET", `/rollouts/${rid}/attempts/latest`) as Promise<any>;
  getRollout = (rid: string) => this.request("GET", `/rollouts/${rid}`) as Promise<any>;
  queryResources = (p: { resources_id?: string; resources_id_contains?: string; sort_by?: string; sort_order?: string; limit?: number; offset?: number } = {}) => {
    const params: [string, unknown][] = [["limit", p.limit ?? -1], ["offset", p.offset ?? 0]];
    if (p.sort_by) params.push(["sort_by", p.sort_by], ["sort_order", p.sort_order ?? "asc"]);
    if (p.resources_id) params.push(["resources_id", p.resources_id]);
    if (p.resources_id_contains) params.push(["resources_id_contains", p.resources_id_contains]);
    return this.request("GET", "/resources", { params }) as Promise<any>;
  };
  addResources = (r: Json) => this.request("POST", "/resources", { json: r }) as Promise<any>;
  updateResources = (id: string, r: Json) => this.request("POST", `/resources/${id}`, { json: r }) as Promise<any>;
  getResources = (id: string) => this.request("GET", `/resources/${id}`) as Promise<any>;
  getLatestResources = () => this.request("GET", "/resources/latest") as Promise<any>;
  addSpan = (span: Json) => this.request("POST", "/spans", { json: span }) as Promise<any>;
  addManySpans = async (spans: Json[]) => {
    const out: any[] = [];
    for (const s of spans) {
      const r = await this.addSpan(s);
      if (r !== null) out.push(r);
    }
    return out;
  };
  nextSequenceId = async (rid: string, aid: string) => ((await this.request("POST", "/spans/next", { json: { rollout_id: rid, attempt_id: aid } })) as { sequence_id: number }).sequence_id;
  manySequenceIds = async (pairs: [string, string][]) => {
    const out: number[] = [];
    for (const [r, a] of pairs) out.push(await this.nextSequenceId(r, a));
    return out;
  };
  waitForRollouts = (ids: string[], timeout: number | null) => {
    if (timeout !== null && timeout > 0.1) throw new Error("Timeout must be less than 0.1 seconds in LightningStoreClient");
    return this.request("POST", "/waits/rollouts", { json: { rollout_ids: ids, timeout } }) as Promise<any[]>;
  };
  querySpans = (rid: string, attemptId: string | null = null, f: Record<string, unknown> = {}) => {
    const payload: Record<string, unknown> = { rollout_id: rid, limit: f.limit ?? -1, offset: f.offset ?? 0 };
    if (attemptId !== null) payload.attempt_id = attemptId;
    for (const k of ["trace_id", "trace_id_contains", "span_id", "span_id_contains", "parent_id", "parent_id_contains", "name", "name_contains"]) if (f[k] !== undefined) payload[k] = f[k];
    payload.filter_logic = f.filter_logic ?? "and";
    payload.sort_by = f.sort_by ?? "sequence_id";
    payload.sort_order = f.sort_order ?? "asc";
    return this.request("POST", "/spans/search", { json: payload }) as Promise<any>;
  };
  /** Sends only the keys that were set (quirk e); config is dumped with all four keys (quirk f). */
  updateRollout = (rid: string, patch: Record<string, unknown>) => this.request("POST", `/rollouts/${rid}`, { json: patch }) as Promise<any>;
  updateAttempt = (rid: string, aid: string, patch: Record<string, unknown>) => this.request("POST", `/rollouts/${rid}/attempts/${aid}`, { json: patch }) as Promise<any>;
  queryWorkers = (p: { status_in?: string[]; worker_id_contains?: string; filter_logic?: string; sort_by?: string; sort_order?: string } = {}) => {
    const payload: Record<string, unknown> = {};
    if (p.status_in) payload.status_in = p.status_in;
    if (p.worker_id_contains) payload.worker_id_contains = p.worker_id_contains;
    payload.filter_logic = p.filter_logic ?? "and";
    if (p.sort_by) Object.assign(payload, { sort_by: p.sort_by, sort_order: p.sort_order ?? "asc" });
    return this.request("POST", "/workers/search", { json: payload }) as Promise<any>;
  };
  getWorker = (wid: string) => this.request("GET", `/workers/${wid}`) as Promise<any>;
  updateWorker = (wid: string, stats?: Json | Unset) => this.request("POST", `/workers/${wid}`, { json: stats === undefined || stats === UNSET ? undefined : { heartbeat_stats: stats } }) as Promise<any>;
}

/** RolloutConfig.model_dump(): all four keys. */
export const rolloutConfig = (c: { timeout_seconds?: number | null; unresponsive_seconds?: number | null; max_attempts?: number; retry_condition?: string[] } = {}) => ({
  timeout_seconds: c.timeout_seconds ?? null,
  unresponsive_seconds: c.unresponsive_seconds ?? null,
  max_attempts: c.max_attempts ?? 1,
  retry_condition: c.retry_condition ?? [],
});
