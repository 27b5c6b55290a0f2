// The few store calls a runner makes, over the store's public HTTP API with a runner API key — the same
// routes and payloads as agentlightning's LightningStoreClient, so this file doubles as the worked example
// of talking to Lightgate from any language.
import type { AttemptedRollout, ResourcesUpdate } from "@/server/store/types";
import type { AglSpan } from "@/server/environments/spans";
import { encodeSpans } from "./otlp";

export class StoreHttpError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    body: string,
  ) {
    super(`${path}: HTTP ${status} ${body.slice(0, 300)}`);
  }
}

export type SpanTransport = "otlp" | "rest";

export class RunnerStoreClient {
  readonly #root: string;
  readonly #auth: Record<string, string>;

  constructor(root: string, apiKey: string) {
    this.#root = root.replace(/\/+$/, "");
    this.#auth = { authorization: `Bearer ${apiKey}` };
  }

  async #call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.#root}${path}`, {
      method,
      headers: { ...this.#auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new StoreHttpError(res.status, path, text);
    return (text ? JSON.parse(text) : null) as T;
  }

  dequeue(workerId: string, limit = 1) {
    return this.#call<AttemptedRollout[]>("POST", "/v1/agl/queues/rollouts/dequeue", { limit, worker_id: workerId });
  }

  /** The rollout's resources by id, or the latest resources when the rollout names none (AGL semantics). */
  resources(resourcesId: string | null) {
    return this.#call<ResourcesUpdate | null>("GET", resourcesId ? `/v1/agl/resources/${encodeURIComponent(resourcesId)}` : "/v1/agl/resources/latest");
  }

  updateAttempt(rolloutId: string, attemptId: string, patch: { status?: string; metadata?: Record<string, unknown> }) {
    return this.#call("POST", `/v1/agl/rollouts/${encodeURIComponent(rolloutId)}/attempts/${encodeURIComponent(attemptId)}`, patch);
  }

  heartbeat(workerId: string, stats: Record<string, unknown>) {
    return this.#call("POST", `/v1/agl/workers/${encodeURIComponent(workerId)}`, { heartbeat_stats: stats });
  }

  /** OTLP/HTTP protobuf to /v1/traces (one request per attempt), or span JSON to /v1/agl/spans one by one. */
  async sendSpans(spans: readonly AglSpan[], transport: SpanTransport): Promise<void> {
    if (spans.length === 0) return;
    if (transport === "otlp") {
      const res = await fetch(`${this.#root}/v1/traces`, { method: "POST", headers: { ...this.#auth, "content-type": "application/x-protobuf" }, body: Buffer.from(encodeSpans(spans)) });
      if (!res.ok) throw new StoreHttpError(res.status, "/v1/traces", await res.text());
      await res.arrayBuffer();
      return;
    }
    for (const span of spans) {
      // The REST route needs a sequence id per span; the store hands them out per rollout.
      const { sequence_id } = await this.#call<{ sequence_id: number }>("POST", "/v1/agl/spans/next", { rollout_id: span.rollout_id, attempt_id: span.attempt_id });
      await this.#call("POST", "/v1/agl/spans", { ...span, sequence_id });
    }
  }
}
