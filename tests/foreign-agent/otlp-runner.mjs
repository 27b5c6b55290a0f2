// A foreign Agent Lightning runner: a plain Node process that knows nothing of Lightgate's code and speaks to it
// only as a runner of another language would — REST under /v1/agl for the queue, resources and attempts, and
// OTLP/HTTP protobuf (the OpenTelemetry SDK's own exporter) at /v1/traces for its spans and reward. The same flow
// as examples/agent-lightning/quickstart.py's runners.
//   FR_RUNNER_KEY=… node tests/foreign-agent/otlp-runner.mjs --url URL --worker NAME
// It serves rollouts until SIGTERM, then finishes the one in hand and prints one JSON line: what it served (rollout,
// attempt, the resources version and digest it ran, the reward it sent).
import { parseArgs } from "node:util";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { context, trace } from "@opentelemetry/api";

const { values: args } = parseArgs({ options: { url: { type: "string" }, worker: { type: "string", default: "otlp-runner" } } });
const BASE = args.url;
const AUTH = { authorization: `Bearer ${process.env.FR_RUNNER_KEY}` };
const served = [];
let stopping = false;
process.on("SIGTERM", () => (stopping = true));

async function agl(method, path, body) {
  const res = await fetch(`${BASE}/v1/agl${path}`, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return { body: await res.json(), headers: res.headers };
}

// The agent: follows the rules its prompt template states; the reward is the share of the three rules followed,
// plus the task's own small offset so that every rollout's reward is its own.
const RULES = ["brief", "cite", "order number"];
const rewardFor = (template, task) => RULES.filter((r) => template.includes(r)).length / RULES.length + task.offset;

async function serve(item) {
  const { rollout_id: rid, attempt } = item;
  const { body: resources, headers } = await agl("GET", `/resources/${encodeURIComponent(item.resources_id)}`);
  const template = resources.resources.prompt_template.template;
  const reward = rewardFor(template, item.input);
  // One tracer provider per attempt: its resource names the rollout and attempt, as Agent Lightning's tracer does.
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "foreign-otlp-runner", "agentlightning.rollout_id": rid, "agentlightning.attempt_id": attempt.attempt_id }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${BASE}/v1/traces`, headers: AUTH }))],
  });
  const tracer = provider.getTracer("foreign-otlp-runner");
  const root = tracer.startSpan("agent.run", {
    attributes: { "lightgate.resources_id": resources.resources_id, "lightgate.resources_version": resources.version, "lightgate.resources_digest": headers.get("x-lightgate-digest") ?? "" },
  });
  const ctx = trace.setSpan(context.active(), root);
  tracer.startSpan("agentlightning.annotation", { attributes: { "agentlightning.reward.0.name": "primary", "agentlightning.reward.0.value": reward } }, ctx).end();
  root.end();
  await provider.forceFlush();
  await provider.shutdown();
  await agl("POST", `/rollouts/${rid}/attempts/${attempt.attempt_id}`, { status: "succeeded" });
  served.push({ rollout_id: rid, attempt_id: attempt.attempt_id, resources_id: resources.resources_id, version: resources.version, digest: headers.get("x-lightgate-digest"), reward });
}

while (!stopping) {
  const { body: items } = await agl("POST", "/queues/rollouts/dequeue", { limit: 1, worker_id: args.worker });
  if (items.length === 0) await new Promise((r) => setTimeout(r, 50));
  else await serve(items[0]);
}
console.log(JSON.stringify({ worker: args.worker, served }));
