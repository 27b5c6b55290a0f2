// `bench:learning`'s rows that can separate methods (issue 28, point 3): distributions where the hard claims can
// fail, each printed with its 95 % interval over seeds and "no gain" where the interval holds zero.
// - Continual learning on conflicting tasks. Task A is the refund desk before the reseller launch (refunds are
//   answered; its own distribution version, so the v5 rule does not apply), task B the refund desk after it
//   (v5-refunds: plan XOR market goes to a human). Same tickets, same features, opposite best actions on half the
//   refunds: nothing in the state says which regime holds, so learning B must overwrite A. Plain fine-tuning (no
//   replay, no EWC), replay, EWC (labelled boundaries) and both, on one stream of A's then B's demonstrations;
//   forgetting = A's held-out reward when the stream left A minus at its end, beside B's reward at the end.
// - Curriculum vs shuffled on v2: easy-first levels vs the same PPO on the whole distribution (the tasks shuffled),
//   same updates and episodes, overall and on the hardest third of the held-out tasks. (Tried first on the hard
//   text desk: linear PPO there stays near zero with or without levels — it cannot represent the desk's sequences
//   from hashed words, so no order of tasks can help; the row would measure capacity, not the curriculum.)
import { digestOf } from "@/server/digest";
import type { Demonstration } from "@/server/datasets/records";
import { createSupportDesk, findDistribution, REFUND_DESK_DISTRIBUTION } from "@/server/environments/support-desk";
import { deskDifficulty } from "@/server/environments/support-desk/domains";
import { deskExpert } from "@/server/environments/support-desk/expert";
import type { TaskDistribution } from "@/server/environments/types";
import { collectDemonstrations } from "@/server/trainers/data-sources";
import { evaluatePolicy, lockHeldOutSet, lockValidationSet, pinOf } from "@/server/trainers/evaluate";
import { meanInterval } from "@/server/trainers/evaluation/intervals";
import { continueFamily, startFamily } from "@/server/trainers/families";
import type { Digest } from "@/server/digest";
import { initialPolicy, type Policy } from "@/server/trainers/policy";

const fmt = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(3);
const ci = (xs: number[]) => {
  const i = meanInterval(xs);
  const zero = i.ci[0] <= 0 && i.ci[1] >= 0;
  return `${fmt(i.estimate)} [${fmt(i.ci[0])}, ${fmt(i.ci[1])}]${zero ? " (no gain)" : ""}`;
};
const plain = (xs: number[]) => {
  const i = meanInterval(xs);
  return `${fmt(i.estimate)} [${fmt(i.ci[0])}, ${fmt(i.ci[1])}]`;
};
const policyOf = (candidate: unknown) => (candidate as { policy: Policy }).policy;

const standardDesk = createSupportDesk();
/** Task A: the refund desk's tickets before the launch — its own version, so refunds are answered, never handed off. */
function beforeLaunch(): TaskDistribution {
  const content = { environment: REFUND_DESK_DISTRIBUTION.environment, version: "refunds-before-launch", title: "Refund desk before the reseller launch", mix: REFUND_DESK_DISTRIBUTION.mix };
  return { ...content, digest: digestOf(content) };
}

const CONTINUAL_VARIANTS: [string, Record<string, unknown>][] = [
  ["plain fine-tuning", { replay: { enabled: false }, ewc: { enabled: false }, boundaries: { mode: "none" } }],
  ["replay", { replay: { enabled: true }, ewc: { enabled: false }, boundaries: { mode: "labels" } }],
  ["EWC", { replay: { enabled: false }, ewc: { enabled: true }, boundaries: { mode: "labels" } }],
  ["replay + EWC", { replay: { enabled: true }, ewc: { enabled: true }, boundaries: { mode: "labels" } }],
  // The defaults' stronger settings: a conflict is a trade, and these buy more of A for less of B.
  ["replay, share 0.6", { replay: { enabled: true, rehearsalFraction: 0.6 }, ewc: { enabled: false }, boundaries: { mode: "labels" } }],
  ["EWC, strength 500", { replay: { enabled: false }, ewc: { enabled: true, strength: 500 }, boundaries: { mode: "labels" } }],
];

export async function continualConflictRows(seeds: number): Promise<void> {
  const A = beforeLaunch();
  const B = REFUND_DESK_DISTRIBUTION;
  // The desk with task A's distribution listed (same spec: distributions are not part of it).
  const desk = { ...standardDesk, distributions: [...standardDesk.distributions, A] };
  const heldA = lockHeldOutSet(desk, A, 300, "bench-separation");
  const heldB = lockHeldOutSet(desk, B, 300, "bench-separation");
  const perSegment = 300;
  const streamBatch = 50;
  console.log(`\nContinual learning on conflicting tasks (${seeds} seeds; ${perSegment} expert demonstrations of A = refund desk before the launch, then ${perSegment} of B = v5-refunds; softmax-linear; 300 held-out tasks each)`);
  console.log("method               A when the stream left A      A at the end                  forgetting A (left − end)        B at the end");
  const forgetting: Record<string, number[]> = {};
  for (const [label, config] of CONTINUAL_VARIANTS) {
    const left: number[] = [];
    const endA: number[] = [];
    const endB: number[] = [];
    for (let k = 0; k < seeds; k++) {
      const demos = (d: TaskDistribution, tag: string, start: string): Demonstration[] =>
        collectDemonstrations(desk, [{ id: "expert", policyFor: (t) => deskExpert(t, 0.03) }], { distribution: d, count: perSegment, seed: `sep-${tag}-${k}`, domainOf: () => tag, startAt: start });
      const records = [...demos(A, "A", "2026-01-01T00:00:00.000Z"), ...demos(B, "B", "2026-02-01T00:00:00.000Z")].sort((a, b) => (a.id < b.id ? -1 : 1));
      const data = { id: `ds-sep-${k}`, digest: digestOf(records) as Digest, records };
      const started = startFamily({ family: "continual", config: { streamBatch, ...config }, parent: initialPolicy("softmax-linear", desk), environment: desk, distribution: B, seed: `sep-${k}`, data, heldOut: pinOf(heldB), validation: lockValidationSet(desk, B, 100, "bench-separation"), codeRevision: "0000000" });
      const afterA = await continueFamily(started, perSegment / streamBatch);
      left.push(evaluatePolicy(desk, policyOf(afterA.candidate), heldA).meanReward);
      const end = await continueFamily(started, perSegment / streamBatch);
      endA.push(evaluatePolicy(desk, policyOf(end.candidate), heldA).meanReward);
      endB.push(evaluatePolicy(desk, policyOf(end.candidate), heldB).meanReward);
    }
    forgetting[label] = left.map((l, i) => l - endA[i]!);
    console.log(`${label.padEnd(20)} ${plain(left).padEnd(29)} ${plain(endA).padEnd(29)} ${plain(forgetting[label]!).padEnd(32)} ${plain(endB)}`);
  }
  const naive = forgetting["plain fine-tuning"]!;
  for (const [label] of CONTINUAL_VARIANTS.slice(1)) {
    console.log(`  ${label} forgets less than plain fine-tuning by ${ci(naive.map((n, i) => n - forgetting[label]![i]!))} (paired by seed)`);
  }
}

export async function curriculumRows(seeds: number, updates: number): Promise<void> {
  const desk = standardDesk;
  const dist = findDistribution("v2");
  const held = lockHeldOutSet(desk, dist, 300, "bench-separation");
  const validation = lockValidationSet(desk, dist, 100, "bench-separation");
  // The hardest third of the held-out tasks by the curriculum's own difficulty measure: where easy-first should pay.
  const difficulty = held.seeds.map((s) => deskDifficulty(desk.sampleTask(dist, s)));
  const cut = [...difficulty].sort((a, b) => a - b)[Math.floor((2 * difficulty.length) / 3)]!;
  console.log(`\nCurriculum vs shuffled (v2; ${seeds} seeds; ${updates} updates of 128 episodes; softmax-linear PPO either way; 300 held-out tasks, the hardest third apart)`);
  const scores: Record<string, { all: number[]; hard: number[] }> = {};
  for (const [label, enabled] of [["easy first (curriculum)", true], ["shuffled (plain PPO)", false]] as const) {
    const s = (scores[label] = { all: [] as number[], hard: [] as number[] });
    for (let k = 0; k < seeds; k++) {
      const started = startFamily({ family: "curriculum", config: { enabled }, parent: initialPolicy("softmax-linear", desk), environment: desk, distribution: dist, seed: `sep-curriculum-${k}`, data: null, heldOut: pinOf(held), validation, codeRevision: "0000000" });
      const e = evaluatePolicy(desk, policyOf((await continueFamily(started, updates)).candidate), held);
      const hard = e.perTask.filter((_, i) => difficulty[i]! >= cut);
      s.all.push(e.meanReward);
      s.hard.push(hard.reduce((a, t) => a + t.reward, 0) / hard.length);
    }
    console.log(`${label.padEnd(26)} all ${plain(s.all).padEnd(29)} hardest third ${plain(s.hard)}`);
  }
  const [a, b] = Object.values(scores) as [{ all: number[]; hard: number[] }, { all: number[]; hard: number[] }];
  console.log(`  easy first − shuffled, paired by seed: all ${ci(a.all.map((x, i) => x - b.all[i]!))}; hardest third ${ci(a.hard.map((x, i) => x - b.hard[i]!))}`);
}
