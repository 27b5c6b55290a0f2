// OTLP over real HTTP: real spans exported with @opentelemetry/exporter-trace-otlp-proto from
// @opentelemetry/sdk-trace-base into the running server, read back through the REST API; plus OTLP/JSON,
// gzip, and the refusals (bad protobuf, bad gzip, unknown rollout, wrong content type).
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { CompressionAlgorithm } from "@opentelemetry/otlp-exporter-base";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SpanStatusCode, context, trace } from "@opentelemetry/api";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

describeEachDialect("OTLP /v1/traces", (dialect) => {
  let s: StoreServer;
  beforeAll(async () => {
    s = await startStoreServer(dialect, "otlp");
  });
  afterAll(() => s?.close());

  async function exportSpans(rolloutId: string, attemptId: string, compression: CompressionAlgorithm) {
    const exporter = new OTLPTraceExporter({ url: `${s.url}/v1/traces`, headers: { Authorization: `Bearer ${s.keys.runner}` }, compression });
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "agentlightning.rollout_id": rolloutId, "agentlightning.attempt_id": attemptId, "service.name": "otlp-test" }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer("lightgate-test");
    const root = tracer.startSpan("agent.run", { attributes: { "agentlightning.span_sequence_id": "7", tags: ["a", "b"], n: 3 } });
    const ctx = trace.setSpan(context.active(), root);
    const child = tracer.startSpan("openai.chat.completion", { attributes: { "gen_ai.prompt.0.content": "hi", temperature: 0.5 } }, ctx);
    child.addEvent("token", { index: 1 });
    child.setStatus({ code: SpanStatusCode.ERROR, message: "rate limited" });
    child.end();
    const reward = tracer.startSpan("agentlightning.annotation", { attributes: { "agentlightning.reward.0.name": "primary", "agentlightning.reward.0.value": 1.0 } }, ctx);
    reward.end();
    root.end();
    await provider.forceFlush();
    await provider.shutdown();
    return { root, child };
  }

  for (const compression of [CompressionAlgorithm.NONE, CompressionAlgorithm.GZIP]) {
    it(`stores spans exported by the OTel SDK (${compression}) and serves them over REST`, async () => {
      const r = await s.client.startRollout({ otlp: compression });
      const { root, child } = await exportSpans(r.rollout_id, r.attempt.attempt_id, compression);
      const res = await s.client.querySpans(r.rollout_id, "latest");
      expect(res.total).toBe(3);
      const byName = Object.fromEntries(res.items.map((x: { name: string }) => [x.name, x]));
      const c = byName["openai.chat.completion"];
      expect(c.trace_id).toBe(child.spanContext().traceId);
      expect(c.span_id).toBe(child.spanContext().spanId);
      expect(c.parent_id).toBe(root.spanContext().spanId);
      expect(c.status).toEqual({ status_code: "ERROR", description: "rate limited" });
      expect(c.attributes).toMatchObject({ "gen_ai.prompt.0.content": "hi", temperature: 0.5 });
      expect(c.events[0]).toMatchObject({ name: "token", attributes: { index: 1 } });
      expect(c.start_time).toBeGreaterThan(1.6e9);
      expect(c.end_time).toBeGreaterThanOrEqual(c.start_time);
      expect(c.context).toEqual({ trace_id: c.trace_id, span_id: c.span_id, is_remote: false, trace_state: {} });
      expect(c.parent).toBeNull();
      expect(c.resource.attributes["agentlightning.rollout_id"]).toBe(r.rollout_id);
      expect(byName["agent.run"].sequence_id).toBe(7);
      expect(byName["agent.run"].attributes.tags).toEqual(["a", "b"]);
      expect(byName["agentlightning.annotation"].attributes["agentlightning.reward.0.value"]).toBe(1);
      const seqs = res.items.map((x: { sequence_id: number }) => x.sequence_id);
      expect(new Set(seqs).size).toBe(3);
      const after = await s.client.getRollout(r.rollout_id);
      expect(after.status).toBe("running");
      expect(after.attempt.last_heartbeat_time).not.toBeNull();
    });
  }

  const post = (body: BodyInit, headers: Record<string, string>) =>
    fetch(`${s.url}/v1/traces`, { method: "POST", headers: { Authorization: `Bearer ${s.keys.runner}`, ...headers }, body });

  it("answers an empty ExportTraceServiceResponse, also gzipped when asked", async () => {
    const res = await post(new Uint8Array(), { "content-type": "application/x-protobuf" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it("accepts OTLP/JSON", async () => {
    const r = await s.client.startRollout({ otlp: "json" });
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "agentlightning.rollout_id", value: { stringValue: r.rollout_id } }, { key: "agentlightning.attempt_id", value: { stringValue: r.attempt.attempt_id } }] },
          scopeSpans: [{ spans: [{ traceId: "5b8efff798038103d269b633813fc60c", spanId: "eee19b7ec3c1b174", name: "json-span", startTimeUnixNano: "1544712660000000000", endTimeUnixNano: "1544712661000000000", status: { code: 1 }, attributes: [{ key: "k", value: { intValue: "42" } }] }] }],
        },
      ],
    };
    const res = await post(JSON.stringify(body), { "content-type": "application/json" });
    expect(res.status).toBe(200);
    const spans = await s.client.querySpans(r.rollout_id);
    expect(spans.items[0]).toMatchObject({ name: "json-span", span_id: "eee19b7ec3c1b174", status: { status_code: "OK" }, attributes: { k: 42 }, start_time: 1544712660 });
  });

  it("refuses bad protobuf, bad gzip, unknown rollouts and other content types with a 4xx naming the problem", async () => {
    const bad = await post(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), { "content-type": "application/x-protobuf" });
    expect(bad.status).toBe(400);
    expect(Buffer.from(await bad.arrayBuffer()).toString("latin1")).toContain("Unable to parse OTLP traces payload");
    const gz = await post(new Uint8Array([1, 2, 3, 4]), { "content-type": "application/x-protobuf", "content-encoding": "gzip" });
    expect(gz.status).toBe(400);
    expect(Buffer.from(await gz.arrayBuffer()).toString("latin1")).toContain("gzip");
    const ct = await post("x", { "content-type": "text/plain" });
    expect(ct.status).toBe(400);
    const unknown = {
      resourceSpans: [{ resource: { attributes: [{ key: "agentlightning.rollout_id", value: { stringValue: "ro-unknown" } }, { key: "agentlightning.attempt_id", value: { stringValue: "at-x" } }] }, scopeSpans: [{ spans: [{ traceId: "", spanId: "", name: "x" }] }] }],
    };
    const nf = await post(gzipSync(JSON.stringify(unknown)), { "content-type": "application/json", "content-encoding": "gzip" });
    expect(nf.status).toBe(404);
    expect((await nf.json()).message).toContain("ro-unknown");
    const noKey = await fetch(`${s.url}/v1/traces`, { method: "POST", headers: { "content-type": "application/x-protobuf" }, body: new Uint8Array() });
    expect(noKey.status).toBe(401);
  });
});
