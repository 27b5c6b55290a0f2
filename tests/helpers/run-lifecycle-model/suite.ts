// The training-run lifecycle, model-based, against a real database (tests/integration/training/run-lifecycle.
// model.*.test.ts): fast-check drives random sequences of a person's pause/resume/stop, a worker's claim, stop-
// condition pause, finish and failure, lease renewals and letting go, time passing — and pairs of moves on one run
// at once (Promise.all) — and after every step checks the step against the model (spec.ts) and the invariants:
// an ended run never changes (a person's stop is never overwritten), the status history is a path in the
// lifecycle's graph, a refused move writes nothing, and every move a person made has its audit row and event.
// 30 sequences of 15–40 steps by default (RUN_LIFECYCLE_MODEL_RUNS and _SEED set them; a few seconds in all).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Dialect } from "@/server/db/config";
import { createTestDatabase, type TestDatabase } from "../db";
import { describeEv, EDGES, ENDED, expected, expectedHold, PEOPLE, QUEUED, WORKERS, type Ev, type Hold, type ModelRun } from "./spec";
import { RunWorld, type Move, type Observed, type Outcome } from "./world";

const RUNS = Number(process.env.RUN_LIFECYCLE_MODEL_RUNS ?? 30);
const SEED = Number(process.env.RUN_LIFECYCLE_MODEL_SEED ?? 20261205);
const RUNS_PER_SEQUENCE = 2;

type Model = { runs: ModelRun[]; steps: number };
type Real = {
  w: RunWorld;
  ids: string[];
  /** Each run's moves in order, and how it looked when it ended (nothing may change it after). */
  history: Move[][];
  ended: (Observed | null)[];
  personMoves: number[];
};

const model = (o: Observed): ModelRun => ({ status: o.status, reason: o.reason, holder: o.holder, leaseUntil: o.leaseUntil });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
function fail(label: string, what: string, detail: unknown): never {
  throw new Error(`${label}: ${what}\n${JSON.stringify(detail, null, 1)}`);
}

/** After every step, on every run: the invariants the lifecycle promises whatever the step was. */
async function checkInvariants(label: string, m: Model, r: Real) {
  for (const [i, id] of r.ids.entries()) {
    const now = await r.w.observe(id);
    const ended = r.ended[i];
    if (ended) {
      // An ended run never changes (its worker may still let go of it): a person's stop is never overwritten.
      const keep = (o: Observed) => ({ status: o.status, reason: o.reason, finishedAt: o.finishedAt });
      if (!same(keep(now), keep(ended))) fail(label, `run ${i} ended ${ended.status} and changed since`, { ended, now });
    } else if (ENDED.includes(now.status)) {
      if (now.finishedAt === null) fail(label, `run ${i} ended ${now.status} without its moment`, now);
      if (now.status === "stopped" && !PEOPLE.some((p) => now.reason === `stopped by ${p}`)) fail(label, `run ${i} is stopped but not by a person`, now);
      r.ended[i] = now;
    } else if (now.finishedAt !== null) fail(label, `run ${i} is ${now.status} but has finishedAt`, now);
    // The history is a path in the lifecycle's graph, from queued to where the run is.
    let at = "queued";
    for (const move of r.history[i]!) {
      if (move.from !== at) fail(label, `run ${i}'s history jumps: ${at}, then a ${move.label} from ${move.from}`, r.history[i]);
      if (!EDGES.has(`${move.from}→${move.to}`)) fail(label, `run ${i} moved ${move.from} → ${move.to}, not an edge of the lifecycle`, r.history[i]);
      at = move.to;
    }
    if (at !== now.status) fail(label, `run ${i}'s history ends at ${at} but it is ${now.status}`, { history: r.history[i], now });
    // Every move a person made is audited and on the run's events, once.
    const records = await r.w.personRecords(id);
    if (records.audited !== r.personMoves[i] || records.events !== r.personMoves[i]) fail(label, `run ${i}: ${r.personMoves[i]} moves by a person, ${records.audited} audit rows, ${records.events} events`, records);
    if (!same(model(now), m.runs[i])) fail(label, `run ${i} is not what the model says`, { model: m.runs[i], now });
  }
  m.steps += 1;
}

const record = (r: Real, i: number, e: Ev, o: Outcome) => {
  if (!o.ok) return;
  r.history[i]!.push(o.move);
  if ("by" in e) r.personMoves[i]! += 1;
};

class Step implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly label: string,
    readonly act: (m: Model, r: Real) => Promise<void>,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await this.act(m, r);
    await checkInvariants(this.label, m, r);
  }
  toString() {
    return this.label;
  }
}

/** One move alone: exactly what the model says, and a refusal writes nothing. */
const single = (i: number, e: Ev) =>
  new Step(`run ${i}: ${describeEv(e)}`, async (m, r) => {
    const id = r.ids[i]!;
    const before = await r.w.observe(id);
    const want = expected(m.runs[i]!, e, r.w.clock);
    const got = await r.w.apply(id, e);
    const after = await r.w.observe(id);
    if (want === null) {
      if (got.ok) fail(`run ${i}: ${describeEv(e)}`, `the lifecycle allowed a move the model refuses (${got.move.from} → ${got.move.to})`, { before });
      if (!same(before, after)) fail(`run ${i}: ${describeEv(e)}`, "a refused move wrote the run", { before, after });
      if (!got.message.includes(before.status)) fail(`run ${i}: ${describeEv(e)}`, `the refusal does not name the state it found (${before.status})`, got);
    } else {
      if (!got.ok) fail(`run ${i}: ${describeEv(e)}`, `refused a move the model allows: ${got.message}`, { before, want });
      if (got.move.from !== before.status || got.move.to !== want.status) fail(`run ${i}: ${describeEv(e)}`, "the move reported another from → to", got.move);
    }
    record(r, i, e, got);
    m.runs[i] = want ?? m.runs[i]!;
  });

/**
 * Two moves on one run at once. Each either happens or is refused with CONFLICT; what happened must be what
 * some order of the two gives (a move refused because the other got in first is fine), and when either could
 * happen from where the run was, one did.
 */
const pair = (i: number, a: Ev, b: Ev) =>
  new Step(`run ${i}: at once, ${describeEv(a)} and ${describeEv(b)}`, async (m, r) => {
    const label = `run ${i}: at once, ${describeEv(a)} and ${describeEv(b)}`;
    const id = r.ids[i]!;
    const start = m.runs[i]!;
    const [ga, gb] = await Promise.all([r.w.apply(id, a), r.w.apply(id, b)]);
    const after = model(await r.w.observe(id));
    const orders: [Ev, Outcome][][] = [
      [
        [a, ga],
        [b, gb],
      ],
      [
        [b, gb],
        [a, ga],
      ],
    ];
    // Replays the moves that happened in this order; null when one of them could not have happened there.
    const replay = (order: [Ev, Outcome][]) => {
      let s: ModelRun = start;
      for (const [e, o] of order) {
        if (!o.ok) continue;
        const next = expected(s, e, r.w.clock);
        if (!next || o.move.from !== s.status || o.move.to !== next.status) return null;
        s = next;
      }
      return s;
    };
    const fits = orders.find((order) => same(replay(order), after));
    if (!fits) fail(label, "no order of the two moves gives what the database holds", { start, outcomes: [ga, gb], after });
    if (!ga.ok && !gb.ok && (expected(start, a, r.w.clock) || expected(start, b, r.w.clock))) fail(label, "both were refused though one could move the run", { start, outcomes: [ga, gb] });
    for (const [e, o] of fits!) record(r, i, e, o);
    m.runs[i] = after;
  });

const hold = (i: number, h: Hold) =>
  new Step(`run ${i}: ${describeEv(h)}`, async (m, r) => {
    await r.w.hold(r.ids[i]!, h);
    m.runs[i] = expectedHold(m.runs[i]!, h, r.w.clock);
  });

const tick = (s: number) => new Step(`${s} s pass`, async (_m, r) => void (r.w.clock += s * 1000));

const run = fc.integer({ min: 0, max: RUNS_PER_SEQUENCE - 1 });
const worker = fc.constantFrom(...WORKERS);
const by = fc.constantFrom(...PEOPLE);
// Weights: claims and resumes keep runs moving, so sequences reach every state before a stop ends them.
const event: fc.Arbitrary<Ev> = fc.oneof(
  { arbitrary: worker.map((w) => ({ kind: "claim" as const, worker: w })), weight: 5 },
  { arbitrary: by.map((p) => ({ kind: "pause" as const, by: p })), weight: 3 },
  { arbitrary: by.map((p) => ({ kind: "resume" as const, by: p })), weight: 3 },
  { arbitrary: by.map((p) => ({ kind: "stop" as const, by: p })), weight: 1 },
  { arbitrary: worker.map((w) => ({ kind: "pauseOnStopCondition" as const, worker: w })), weight: 2 },
  { arbitrary: fc.tuple(worker, fc.boolean()).map(([w, familyEnded]) => ({ kind: "finish" as const, worker: w, familyEnded })), weight: 2 },
  { arbitrary: worker.map((w) => ({ kind: "fail" as const, worker: w })), weight: 2 },
);
const step = fc.oneof(
  { arbitrary: fc.tuple(run, event).map(([i, e]) => single(i, e)), weight: 8 },
  { arbitrary: fc.tuple(run, event, event).map(([i, a, b]) => pair(i, a, b)), weight: 4 },
  { arbitrary: fc.tuple(run, fc.constantFrom("renew" as const, "letGo" as const), worker).map(([i, kind, w]) => hold(i, { kind, worker: w })), weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 20 }).map(tick), weight: 2 },
);

export function runLifecycleModelSuite(dialect: Dialect) {
  const pg = inject("postgres");
  if (dialect === "postgresql" && !pg.ok) return describe.skip(`the training-run lifecycle, model-based [postgresql] — skipped: ${pg.reason}`, () => {});
  describe(`the training-run lifecycle, model-based [${dialect}]`, () => suite(dialect));
}

function suite(dialect: Dialect) {
  let database: TestDatabase;
  const reached = new Map<string, number>();
  beforeAll(async () => {
    database = await createTestDatabase(dialect, "runlife");
  }, 60_000);
  afterAll(() => database?.drop());

  it(`keeps every invariant over ${RUNS} random sequences, pairs of moves at once among them`, async () => {
    const steps: number[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 15, maxLength: 40 }), async (cmds) => {
        const w = new RunWorld(database, new Date());
        const ids = [];
        for (let i = 0; i < RUNS_PER_SEQUENCE; i++) ids.push(await w.newRun());
        const m: Model = { runs: ids.map(() => ({ ...QUEUED })), steps: 0 };
        const real: Real = { w, ids, history: ids.map(() => []), ended: ids.map(() => null), personMoves: ids.map(() => 0) };
        await fc.asyncModelRun(() => ({ model: m, real }), cmds);
        for (const h of real.history) for (const move of h) reached.set(`${move.from}→${move.to}`, (reached.get(`${move.from}→${move.to}`) ?? 0) + 1);
        steps.push(m.steps);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    console.log(`run lifecycle model [${dialect}]: ${steps.length} sequences, ${steps.reduce((a, b) => a + b, 0)} steps; moves: ${[...reached].map(([k, v]) => `${k} ${v}`).join(", ")}`);
    expect(steps).toHaveLength(RUNS);
    // The sequences reached every edge of the lifecycle (a model that never left queued would prove nothing).
    expect([...EDGES].filter((e) => !reached.has(e))).toEqual([]);
  }, 120_000);
}
