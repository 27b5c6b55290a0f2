// The promotion lifecycle, model-based (issue 24, "Proof"), one suite per dialect (tests/integration/promotion/
// model.*.test.ts, two files so the dialects run side by side): fast-check drives random sequences — declare, gate
// run and re-run, registry publishes (evaluator, tool contract, task distribution, retry policy), late spans and
// attempts, canary approvals by each kind of person, canary-stage progress and breach, default approvals,
// rollbacks, retention passes, attempts to delete the exact parent, time passing — against the real database
// (SQLite and PostgreSQL), and after every step checks the invariants listed in ARCHITECTURE.md ("Promotion").
// CI runs a fixed seed: 10 sequences per dialect, each ≥ 15 steps (PROMOTION_MODEL_RUNS sets it; a step costs
// 50–150 ms of Prisma round trips, and CI has 30 minutes for everything);
// `npm run test:promotion-model -- --runs 2000 --seed <n>` is the nightly-size run.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Dialect } from "@/server/db/config";
import type { ReferenceName } from "@/server/gate/reference/raw-evidence";
import { checkCandidates, checkPointerHistory, checkSafety, checkStep, snapshot } from "./invariants";
import { createTemplate, PEOPLE, REACHED, World, type Outcome, type PersonName, type Template } from "./world";

const RUNS = Number(process.env.PROMOTION_MODEL_RUNS ?? 10);
const SEED = Number(process.env.PROMOTION_MODEL_SEED ?? 20261205);
const MIN_STEPS = 15;
/** The sequences' clock starts here; the reference's training evidence was produced just before. */
const START = new Date();

type Model = { declared: ReferenceName[]; steps: number };
type Real = { w: World; signatures: Set<string> };
type Moves = "none" | "one" | "at-most-one";

/** One step: act through the product, then check the step's own effect and every invariant. */
class Step implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly label: string,
    readonly act: (w: World, m: Model) => Promise<{ outcome?: Outcome; moves: Moves; audited?: boolean }>,
    readonly needsCandidate = true,
  ) {}
  check(m: Readonly<Model>) {
    return !this.needsCandidate || m.declared.length > 0;
  }
  async run(m: Model, r: Real) {
    // A second passes with every step: two moves never share a time (the pointer history is ordered by it).
    r.w.tick(1);
    const before = await snapshot(r.w);
    const { outcome = { ok: true }, moves, audited = true } = await this.act(r.w, m);
    const after = await snapshot(r.w);
    // Refusals by the database itself (the parent's bytes) are not decisions: they are not in the audit log.
    if (audited) checkStep(before, after, { ok: outcome.ok, moves }, this.label);
    else if (after.moves !== before.moves) throw new Error(`${this.label}: a pointer moved`);
    await checkPointerHistory(r.w, r.signatures);
    await checkSafety(r.w);
    // Every candidate's checks at every step; the pages of the candidates the step acted on, and of all of them
    // (with the candidates list and the approval panel) at the end of the sequence.
    await checkCandidates(r.w, { pages: r.w.touched });
    r.w.touched.clear();
    m.steps += 1;
  }
  toString() {
    return this.label;
  }
}

/** The candidate a command acts on: mostly the first declared (reference A, the one that can go all the way). */
const pick = (m: Model, i: number) => m.declared[i < 6 ? 0 : i % m.declared.length]!;
const candidateOf = (w: World, m: Model, i: number) => w.declared.get(pick(m, i))!;
const index = fc.integer({ min: 0, max: 9 });
const person = fc.constantFrom<PersonName>(...PEOPLE);

const declare = fc.constantFrom<ReferenceName>("A", "B", "C", "D").map(
  (name) =>
    new Step(
      `declare ${name}`,
      async (w, m) => {
        const free = [name, ...(["A", "B", "C", "D"] as const)].find((n) => !m.declared.includes(n));
        if (free) {
          await w.declare(free);
          m.declared.push(free);
        }
        return { moves: "none" };
      },
      false,
    ),
);
const requestRun = index.map((i) => new Step(`request a gate run (${i})`, async (w, m) => (await w.requestRun(candidateOf(w, m, i)), { moves: "none" })));
const finishRun = index.map((i) => new Step(`gate run seals (${i})`, async (w, m) => (await w.finishRun(candidateOf(w, m, i)), { moves: "none" })));
const publish = fc.constantFrom<"evaluator" | "tool_contract" | "task_distribution" | "retry_policy">("evaluator", "tool_contract", "task_distribution", "retry_policy").map(
  (kind) => new Step(`publish ${kind}`, async (w) => (await w.publish(kind), { moves: "none" }), false),
);
const late = fc.tuple(index, fc.constantFrom<"span" | "attempt">("span", "attempt"), fc.nat(50)).map(
  ([i, what, n]) => new Step(`late ${what} (${i})`, async (w, m) => (await w.late(candidateOf(w, m, i), what, n), { moves: "none" })),
);
const approve = fc.tuple(index, fc.constantFrom<"canary" | "default">("canary", "default"), person).map(
  ([i, step, who]) => new Step(`${who} approves the ${step} step (${i})`, async (w, m) => ({ outcome: await w.approve(candidateOf(w, m, i), step, who), moves: "one" })),
);
const stage = fc.tuple(index, fc.boolean()).map(
  ([i, breach]) => new Step(`canary stage ${breach ? "breaches" : "seals"} (${i})`, async (w, m) => (await w.stage(candidateOf(w, m, i), breach), { moves: breach ? "at-most-one" : "none" })),
);
const rollback = fc.tuple(fc.constantFrom<"canary" | "approved_default">("canary", "approved_default"), fc.nat(5), person).map(
  ([pointer, n, who]) => new Step(`${who} rolls back the ${pointer} (${n})`, async (w) => ({ outcome: await w.rollback(pointer, n, who), moves: "one" }), false),
);
const retention = fc.constant(new Step("retention pass", async (w) => (await w.retention(), { moves: "none" }), false));
const removeParent = fc.constant(new Step("delete the exact parent's bytes", async (w) => ({ outcome: await w.removeParent(), moves: "none", audited: false }), false));
const advance = fc.tuple(index, fc.nat(59)).map(([i, n]) => new Step(`advance (${i}, ${n})`, async (w, m) => w.advance(candidateOf(w, m, i), n)));
const tick = fc.integer({ min: 1, max: 6 * 3600 }).map((s) => new Step(`${s} s pass`, async (w) => (w.tick(s), { moves: "none" }), false));

// Weights: `advance` (the next step the machine says is open, done as a team would) takes half the steps, so
// sequences reach the canary, the default and the way back; the others disturb it at random.
const step = fc.oneof(
  { arbitrary: advance, weight: 12 },
  ...[declare, requestRun, finishRun, publish, late, approve, stage, rollback, retention, removeParent, tick].map((arbitrary) => ({ arbitrary, weight: 1 })),
);
const sequence = fc.array(step, { minLength: MIN_STEPS, maxLength: MIN_STEPS + Number(process.env.PROMOTION_MODEL_EXTRA_STEPS ?? 3) });
/** Every sequence starts with a candidate declared; half with it judged too, so they reach the canary, the default and the way back. */
const opening = fc.tuple(fc.constantFrom<ReferenceName>("A", "A", "A", "B", "C", "D"), fc.boolean()).map(([name, judged]) => [
  new Step(`declare ${name}`, async (w, m) => (await w.declare(name), m.declared.push(name), { moves: "none" }), false),
  ...(judged ? [new Step("gate run seals", async (w, m) => (await w.finishRun(candidateOf(w, m, 0)), { moves: "none" }))] : []),
]);

export function promotionModelSuite(dialect: Dialect) {
  const pg = inject("postgres");
  if (dialect === "postgresql" && !pg.ok) return describe.skip(`the promotion lifecycle, model-based [postgresql] — skipped: ${pg.reason}`, () => {});
  describe(`the promotion lifecycle, model-based [${dialect}]`, () => suite(dialect));
}

function suite(dialect: Dialect) {
  let template: Template;
  const steps: number[] = [];
  beforeAll(async () => {
    template = await createTemplate(dialect, START);
  }, 120_000);
  afterAll(() => template?.drop());

  it(`keeps every invariant over ${RUNS} random sequences of ≥ ${MIN_STEPS} steps`, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(opening, sequence, async (first, cmds) => {
        const w = await World.open(template, n++, START);
        const model: Model = { declared: [], steps: 0 };
        try {
          await fc.asyncModelRun(() => ({ model, real: { w, signatures: new Set<string>() } }), [...first, ...cmds]);
          await checkCandidates(w, { pages: "all" });
        } finally {
          await w.close();
        }
        steps.push(model.steps);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const run = steps.slice(-RUNS);
    console.log(`promotion model [${dialect}]: ${run.length} sequences, ${run.reduce((a, b) => a + b, 0)} steps (min ${Math.min(...run)}, median ${run.sort((a, b) => a - b)[run.length >> 1]})`);
    console.log(`reached: ${Object.entries(REACHED).map(([k, v]) => `${k} ${v}`).join(", ")}`);
    expect(run.length).toBe(RUNS);
    expect(Math.min(...run)).toBeGreaterThanOrEqual(MIN_STEPS);
  }, 30 * 60_000);
}
