// The bench's five phases over the wire contract alone, so any LightningStore server can be measured with
// the same client and payloads: enqueue (batches of 100, 4 in flight), dequeue + complete cycles (8 workers),
// single REST spans (16 in flight), OTLP protobuf (100 spans per request, 4 in flight), and the latency of
// a 1,000-span query. Workers are spread round-robin over the targets (several server processes).
import { PerformanceObserver } from "node:perf_hooks";
import { cpuWindow, type DbPids, type PhaseCpu } from "./cpu";
import type { Reply, Target } from "./http";
import { LeanRequest } from "./lean-request";
import { otlpBody, restSpan } from "./payloads";

export const PHASES = ["enqueue", "cycles", "rest", "otlp", "query"] as const;
export type PhaseName = (typeof PHASES)[number];
export type Throughput = { rate: number; cpu: PhaseCpu };
/** `clientGcMs`: the load client's own GC pauses during the timed queries (time the timing cannot tell from the server's). */
export type QueryLatency = { p50: number; p99: number; p50Decoded: number; clientGcMs: number; cpu: PhaseCpu };
export type BenchResult = Partial<Record<Exclude<PhaseName, "query">, Throughput>> & { query?: QueryLatency };

type Claim = { rollout_id: string; attempt: { attempt_id: string } };

export type PhaseOptions = { seconds: number; phases: Set<string>; serverPids: number[]; dbPids?: DbPids };

/** Runs `workers` loops of `step` for `seconds`; returns units per second and the CPU it took. */
async function measure(targets: Target[], o: PhaseOptions, workers: number, step: (t: Target, w: number) => Promise<number>): Promise<Throughput> {
  const end = Date.now() + o.seconds * 1000;
  let units = 0;
  const t0 = performance.now();
  const cpu = await cpuWindow(o.serverPids, o.dbPids);
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      const t = targets[w % targets.length]!;
      while (Date.now() < end) {
        const done = await step(t, w); // not `units += await …`: that reads `units` before the await and loses updates
        units += done;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return { rate: units / elapsed, cpu: await cpu() };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function otlp(t: Target, rid: string, aid: string, count: number): Promise<void> {
  const res = await t.request("POST", "/v1/traces", otlpBody(rid, aid, count), { "content-type": "application/x-protobuf" });
  if (res.status !== 200) throw new Error(`otlp → ${res.status} ${res.body.toString().slice(0, 200)}`);
}

export async function runPhases(targets: Target[], o: PhaseOptions): Promise<BenchResult> {
  const out: BenchResult = {};
  const [first] = targets as [Target];
  for (const t of targets) for (let i = 0; i < 50; i++) await t.request("GET", "/v1/agl/health", null); // warm up the route
  const batch = Array.from({ length: 100 }, (_, i) => ({ input: { task: i, prompt: "solve " + i }, mode: "train", resources_id: null, config: { max_attempts: 1 }, metadata: null }));
  const batchJson = JSON.stringify({ rollouts: batch }); // the same payload every time: serialized once
  await first.post("/queues/rollouts/enqueue", batchJson);

  if (o.phases.has("enqueue")) out.enqueue = await measure(targets, o, 4, async (t) => (await t.post<unknown[]>("/queues/rollouts/enqueue", batchJson)).length);
  else if (o.phases.has("cycles")) for (let i = 0; i < 100; i++) await first.post("/queues/rollouts/enqueue", batchJson); // work for the cycles

  if (o.phases.has("cycles")) {
    const dequeues = Array.from({ length: 8 }, (_, w) => JSON.stringify({ limit: 1, worker_id: `Worker-${w}` }));
    const succeeded = JSON.stringify({ status: "succeeded" });
    out.cycles = await measure(targets, o, 8, async (t, w) => {
      const claimed = await t.post<Claim[]>("/queues/rollouts/dequeue", dequeues[w]!);
      if (!claimed.length) return 0;
      await t.post(`/rollouts/${claimed[0]!.rollout_id}/attempts/${claimed[0]!.attempt.attempt_id}`, succeeded);
      return 1;
    });
  }

  const spanTargets = await Promise.all(Array.from({ length: 16 }, (_, w) => targets[w % targets.length]!.api<Claim>("/rollouts", { input: "spans" })));
  if (o.phases.has("rest")) {
    const seqs = new Array<number>(16).fill(0);
    out.rest = await measure(targets, o, 16, async (t, w) => {
      const s = spanTargets[w]!;
      await t.api("/spans", restSpan(s.rollout_id, s.attempt.attempt_id, ++seqs[w]!));
      return 1;
    });
  }
  if (o.phases.has("otlp")) {
    out.otlp = await measure(targets, o, 4, async (t, w) => {
      const s = spanTargets[w]!;
      await otlp(t, s.rollout_id, s.attempt.attempt_id, 100);
      return 100;
    });
  }
  if (o.phases.has("query")) out.query = await queryLatency(first, o);
  return out;
}

const QUERY_WARMUP = 100;
const QUERY_TIMED = 2_000;

/**
 * Latency of `POST /spans/search` for a rollout with 1,000 spans, request sent → whole response received,
 * over one connection that reads into a reused buffer (lean-request.ts: node:http's per-response
 * allocations made the client's own GC pauses part of the figure). Decoding it is the client's own work, the
 * same whichever server answered, so it is timed in a second loop and reported beside the figure.
 */
async function queryLatency(t: Target, o: PhaseOptions): Promise<QueryLatency> {
  const q = await t.api<Claim>("/rollouts", { input: "query" });
  for (let i = 0; i < 10; i++) await t.api("/spans/next", { rollout_id: q.rollout_id, attempt_id: q.attempt.attempt_id });
  for (let i = 0; i < 1000; i += 100) await otlp(t, q.rollout_id, q.attempt.attempt_id, 100);
  const query = JSON.stringify({ rollout_id: q.rollout_id, limit: -1, offset: 0, filter_logic: "and", sort_by: "sequence_id", sort_order: "asc" });
  const search = () => t.request("POST", "/v1/agl/spans/search", query, { "content-type": "application/json" });
  const decode = (res: Reply) => {
    const page = JSON.parse(res.body.toString()) as { items: unknown[] };
    if (res.status !== 200 || page.items.length !== 1000) throw new Error(`query returned ${res.status} with ${page.items.length} spans`);
  };
  const expected = await search();
  decode(expected);
  const head = [`POST /v1/agl/spans/search HTTP/1.1`, `host: ${t.host}:${t.port}`, ...Object.entries(t.auth).map(([k, v]) => `${k}: ${v}`)];
  head.push("content-type: application/json", `content-length: ${Buffer.byteLength(query)}`, "", query);
  const lean = await LeanRequest.open(t.host, t.port, Buffer.from(head.join("\r\n")));
  const gc = clientGc();
  const times: number[] = [];
  const cpu = await cpuWindow(o.serverPids, o.dbPids);
  try {
    // 2,000 timed queries after 100 to warm up: the p99 is the 20th slowest, not (as with 200) the 2nd.
    for (let i = 0; i < QUERY_WARMUP + QUERY_TIMED; i++) {
      if (i === QUERY_WARMUP) gc.start();
      const t0 = performance.now();
      const res = await lean.send(expected.body);
      if (i >= QUERY_WARMUP) times.push(performance.now() - t0);
      if (res.status !== 200 || !res.same) throw new Error(`query ${i} answered ${res.status}${res.status === 200 ? " with different spans" : ""}`);
    }
  } finally {
    lean.close();
  }
  const used = await cpu();
  const clientGcMs = await gc.stop();
  const decoded: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    decode(await search());
    decoded.push(performance.now() - t0);
  }
  return { p50: pct(times, 50), p99: pct(times, 99), p50Decoded: pct(decoded, 50), clientGcMs, cpu: used };
}

/** Milliseconds this process spent in GC pauses between start() and stop(). */
function clientGc() {
  let ms = 0;
  let from = Infinity;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.startTime >= from) ms += e.duration;
  });
  obs.observe({ entryTypes: ["gc"] });
  return {
    start: () => void (from = performance.now()),
    // GC entries are delivered asynchronously: one turn of the event loop lets the last ones in.
    stop: () => new Promise<number>((resolve) => setImmediate(() => (obs.disconnect(), resolve(ms)))),
  };
}
