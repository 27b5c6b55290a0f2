// A foreign agent: not the support desk, not TypeScript from this repository — a plain Node process that speaks
// to Lightgate only over HTTP, the way an Agent Lightning user's Python code would. It plays three parts with
// three keys: the algorithm (declares stage 1, trains a prompt template on rollouts it enqueues, binds the best
// version, asks for the gate run and reads the verdict), the runner (serves every rollout — training and the
// gate's — with a rule-based agent whose resource is that template) and the verifier (re-reads the answers the
// canary wrote into its destination, a JSON file, and records how each was verified).
//   node tests/foreign-agent/agent.mjs --url URL --held-out gds-… --canary gds-… --destination FILE [--variant V]
// Variants: ok | tool-outside (the canary calls a tool outside the boundary) | runner-stops (the runner quits
// after training) | wrong-evaluator (reward spans name another evaluator version) | parent-latest (declares
// the parent as "latest") | learner-writes-exam (the algorithm key tries to publish a dataset and a verification).
// Its training rollouts name their agent (metadata lightgate.agent), so a runner key bound to it serves them
// in a store shared with other agents. Prints one JSON line: what it saw (statuses, the gate run's verdict and checks).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    url: { type: "string" },
    "held-out": { type: "string" },
    canary: { type: "string" },
    destination: { type: "string" },
    variant: { type: "string", default: "ok" },
    "deadline-seconds": { type: "string", default: "20" },
  },
});
const URL_ = args.url;
const variant = args.variant;
const KEYS = { algorithm: process.env.FA_ALGORITHM_KEY, runner: process.env.FA_RUNNER_KEY, verifier: process.env.FA_VERIFIER_KEY };
const AGENT = "foreign-agent";
const PARENT = { resources_id: "foreign-prompt", version: 1 };
const BEAM = "foreign-apo-beam";
const report = { variant };

async function call(role, method, path, body) {
  const res = await fetch(new URL(path, URL_), {
    method,
    headers: { authorization: `Bearer ${KEYS[role]}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

async function must(role, method, path, body) {
  const r = await call(role, method, path, body);
  if (r.status >= 300) throw new Error(`${role} ${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
  return r.body;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const hex = (n) => randomBytes(n).toString("hex");

// ── The agent: a prompt template applied to a question, scored by how many of its rules it follows ──
const RULES = ["briefly", "cite the knowledge base", "never promise a refund"];
function runAgent(template, input) {
  const question = String(input?.question ?? "");
  const followed = RULES.filter((r) => template.includes(r)).length;
  // A refund question asked of a template that does not forbid promising refunds is answered wrongly.
  const refund = /refund/i.test(question) && !template.includes("never promise a refund");
  const answer = refund ? "refund promised" : question.replace("question", "answer");
  return { answer, reward: refund ? 0 : 0.25 + 0.25 * followed, passed: !refund };
}

// ── The runner part: Agent Lightning's runner loop over REST (dequeue, resources, spans, attempt status) ──
async function nextSequence(rid, aid) {
  return (await must("runner", "POST", "/v1/agl/spans/next", { rollout_id: rid, attempt_id: aid })).sequence_id;
}

async function addSpan(rid, aid, traceId, name, attributes) {
  const sequence_id = await nextSequence(rid, aid);
  const now = Date.now() / 1000;
  const span_id = hex(8);
  const context = { trace_id: traceId, span_id, is_remote: false, trace_state: {} };
  await must("runner", "POST", "/v1/agl/spans", {
    rollout_id: rid, attempt_id: aid, sequence_id, trace_id: traceId, span_id, parent_id: null, name,
    status: { status_code: "OK", description: null }, attributes, events: [], links: [],
    start_time: now, end_time: now, context, parent: null, resource: { attributes: { "service.name": "foreign-agent" }, schema_url: "" },
  });
}

async function serve(item) {
  const rid = item.rollout_id;
  const aid = item.attempt.attempt_id;
  const meta = item.metadata ?? {};
  const phase = meta["lightgate.phase"];
  await must("runner", "POST", `/v1/agl/rollouts/${rid}/attempts/${aid}`, { status: "running" });
  const resources = await must("runner", "GET", `/v1/agl/resources/${encodeURIComponent(item.resources_id)}`);
  const template = resources?.resources?.prompt?.template ?? "";
  const out = runAgent(template, item.input);
  const traceId = hex(16);
  await addSpan(rid, aid, traceId, "openai.chat.completion", { "gen_ai.request.model": "rule-based-1", "gen_ai.usage.input_tokens": 120, "gen_ai.usage.output_tokens": 30, "agent.output": out.answer });
  if (phase === "canary") {
    await addSpan(rid, aid, traceId, "execute_tool search_kb", { "gen_ai.tool.name": "search_kb", "lightgate.target": rid });
    if (variant === "tool-outside") await addSpan(rid, aid, traceId, "execute_tool delete_record", { "gen_ai.tool.name": "delete_record", "lightgate.target": rid });
    // The canary acts on its destination: the answer lands where a verifier can re-read it.
    const dest = fs.existsSync(args.destination) ? JSON.parse(fs.readFileSync(args.destination, "utf8")) : {};
    dest[rid] = out.answer;
    fs.writeFileSync(args.destination, JSON.stringify(dest));
  }
  const evaluator = phase ? (variant === "wrong-evaluator" ? String(meta["lightgate.evaluator"]).replace(/@.*$/, "@2") : meta["lightgate.evaluator"]) : undefined;
  await addSpan(rid, aid, traceId, "agentlightning.annotation", {
    "agentlightning.reward.0.name": "quality",
    "agentlightning.reward.0.value": out.reward,
    ...(evaluator ? { "lightgate.evaluator": evaluator, "lightgate.passed": out.passed } : {}),
  });
  await must("runner", "POST", `/v1/agl/rollouts/${rid}/attempts/${aid}`, { status: "succeeded", metadata: { answer: out.answer } });
}

let runnerOn = true;
async function runnerLoop() {
  while (runnerOn) {
    const items = await must("runner", "POST", "/v1/agl/queues/rollouts/dequeue", { limit: 1, worker_id: "foreign-runner" });
    if (items.length === 0) await sleep(30);
    for (const item of items) {
      await serve(item).catch(async (e) => {
        report.runnerErrors = (report.runnerErrors ?? 0) + 1;
        await call("runner", "POST", `/v1/agl/rollouts/${item.rollout_id}/attempts/${item.attempt.attempt_id}`, { status: "failed", metadata: { "lightgate.failure": String(e.message).slice(0, 300) } });
      });
    }
  }
}

// ── The verifier part: re-reads each canary answer in the destination and compares it with the case's expected ──
let verifierOn = true;
async function verifierLoop() {
  while (verifierOn) {
    const pending = await must("verifier", "GET", "/v1/gate/verifications/pending?limit=50");
    for (const p of pending) {
      const dest = fs.existsSync(args.destination) ? JSON.parse(fs.readFileSync(args.destination, "utf8")) : {};
      const observed = dest[p.rollout_id] ?? null;
      const posted = await call("verifier", "POST", "/v1/gate/verifications", { rollout_id: p.rollout_id, method: "destination", matched: observed !== null && observed === p.expected?.answer, expected: p.expected, observed });
      if (posted.status !== 201) report.verifierRefusals = [...(report.verifierRefusals ?? []), posted.status];
    }
    await sleep(50);
  }
}

// ── The algorithm part ──
async function algorithm() {
  if (variant === "learner-writes-exam") {
    report.publishDataset = (await call("algorithm", "POST", "/v1/gate/datasets", { name: "my own exam", kind: "held_out", cases: [{ id: "x", input: {} }] })).status;
    report.postVerification = (await call("algorithm", "POST", "/v1/gate/verifications", { rollout_id: "ro-000000000000", method: "human", matched: true, confidence: 1 })).status;
    return;
  }
  const declaration = {
    agent: AGENT,
    parent: variant === "parent-latest" ? { resources_id: "latest", version: 1 } : PARENT,
    training_data: { resources_ids: [BEAM] },
    held_out_dataset: args["held-out"],
    canary_dataset: args.canary,
    evaluator: { id: "foreign-exam", version: "3" },
    algorithm: { name: "apo", config: { beam_width: 2, rounds: 2 } },
    code_revision: "0a1b2c3d4e5f",
    scope: { tasks: ["faq"], tools: ["search_kb"], destinations: ["faq-answers"] },
    expected_evidence: { span_families: ["llm.call", "reward"], retry_budget: { expected_resamples_per_rollout: 0, unexpected_retries: 0 }, protected_families: [{ family: "refunds", max_regressions: 0 }] },
    canary_boundary: { max_tasks: 4, max_wall_time_seconds: 300, allowed_tools: ["search_kb"], max_cost_usd: 1, allowed_side_effects: [] },
    approvers: { canary: { actor_ids: [], roles: ["canary_approver"] }, default: { actor_ids: [], roles: ["release_approver"] } },
  };
  const declared = await call("algorithm", "POST", "/v1/gate/receipts", declaration);
  report.declare = { status: declared.status, field: declared.body?.field ?? null };
  if (declared.status !== 201) return;
  const receiptId = declared.body.receipt_id;

  // Train: a beam of two prompt edits, each tried on rollouts tagged with the receipt, the best kept.
  const edits = ["Answer {question} briefly and cite the knowledge base.", "Answer {question} briefly, cite the knowledge base and never promise a refund."];
  let best = null;
  for (const template of edits) {
    await must("algorithm", "POST", `/v1/agl/resources/${BEAM}`, { prompt: { resource_type: "prompt_template", template, engine: "f-string" } });
    const rollouts = await must("algorithm", "POST", "/v1/agl/queues/rollouts/enqueue", {
      rollouts: ["Where is my order?", "Can I get a refund?", "Change my address", "Cancel order 17"].map((question) => ({ input: { question }, mode: "train", resources_id: BEAM, metadata: { "lightgate.receipt": receiptId, "lightgate.agent": AGENT } })),
    });
    const ids = rollouts.map((r) => r.rollout_id);
    for (let done = []; done.length < ids.length; await sleep(50)) done = await must("algorithm", "POST", "/v1/agl/waits/rollouts", { rollout_ids: ids, timeout: 0 });
    const rewards = await Promise.all(ids.map(async (id) => {
      const spans = await must("algorithm", "POST", "/v1/agl/spans/search", { rollout_id: id, limit: 100 });
      return spans.items.map((s) => s.attributes?.["agentlightning.reward.0.value"]).find((v) => typeof v === "number") ?? 0;
    }));
    const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
    if (!best || mean > best.mean) best = { template, mean };
  }
  const written = await must("algorithm", "POST", `/v1/agl/resources/${PARENT.resources_id}`, { prompt: { resource_type: "prompt_template", template: best.template, engine: "f-string" } });
  const bound = await call("algorithm", "POST", `/v1/gate/receipts/${receiptId}/candidate`, { resources_id: PARENT.resources_id, version: written.version });
  report.bind = bound.status;
  if (variant === "runner-stops") runnerOn = false;
  const run = await must("algorithm", "POST", `/v1/gate/receipts/${receiptId}/gate-runs`, { deadline_seconds: Number(args["deadline-seconds"]) });
  for (;;) {
    const view = await must("algorithm", "GET", `/v1/gate/gate-runs/${run.gate_run_id}`);
    if (view.status === "done" || view.status === "failed") {
      Object.assign(report, { receiptId, gateRun: run.gate_run_id, status: view.status, error: view.error, verdict: view.verdict, checks: view.checks });
      return;
    }
    await sleep(100);
  }
}

const loops = [runnerLoop(), verifierLoop()];
try {
  await algorithm();
} finally {
  runnerOn = false;
  verifierOn = false;
  await Promise.allSettled(loops);
}
console.log(JSON.stringify(report));
