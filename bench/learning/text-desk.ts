// `bench:learning`'s text-desk rows: does reading the ticket beat reading hashed words? The text policy and the
// feature MLP go through the very same text-policy phases (its default config: behaviour cloning on the same 400
// scripted-expert demonstrations, then PPO; only the text policy pre-trains, by masked-token prediction), per seed
// new demonstrations and a new training seed; a third row drops the pre-training, a fourth drops the cloning loss
// PPO keeps beside its own by default (demoCoefficient 0: plain PPO). Scored as published (greedy) on
// 300 locked held-out tasks the trainers never read, with protected cases; "after cloning" is the candidate before
// the PPO phase. Desks: v6-text-order (word order carries the meaning) and v4-text (it does not: a control).
import { digestOf, type Digest } from "@/server/digest";
import { createSupportDesk, HARD_DESK_DISTRIBUTION, ORDER_DESK_DISTRIBUTION } from "@/server/environments/support-desk";
import { deskTextExpert } from "@/server/environments/support-desk/expert";
import type { TaskDistribution } from "@/server/environments/types";
import { simulateEpisode } from "@/server/environments/episode";
import { DEFAULT_REWARD_WEIGHTS, weightedReward } from "@/server/environments/types";
import { collectDemonstrations } from "@/server/trainers/data-sources";
import { evaluatePolicy, lockHeldOutSet, type Evaluation } from "@/server/trainers/evaluate";
import { meanInterval } from "@/server/trainers/evaluation/intervals";
import { initialPolicy, type MlpPolicy, type Policy, type TextPolicy } from "@/server/trainers/policy";
import { textPolicyFamily } from "@/server/trainers/text/text-policy";

const env = createSupportDesk({ variant: "text" });
const fmt = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(3);
const ci = (xs: number[]) => {
  const i = meanInterval(xs);
  return `${fmt(i.estimate)} [${fmt(i.ci[0])}, ${fmt(i.ci[1])}]`;
};

type Variant = { key: string; label: string; kind: "text-softmax" | "mlp-softmax"; config: Record<string, unknown> };
const VARIANTS: Variant[] = [
  { key: "pretrained", label: "text policy (pre-trained)", kind: "text-softmax", config: {} },
  { key: "no-pretraining", label: "text policy, no pre-training", kind: "text-softmax", config: { pretrainUpdates: 0 } },
  { key: "mlp", label: "feature MLP (hashed words)", kind: "mlp-softmax", config: {} },
  { key: "plain-ppo", label: "text policy, plain PPO", kind: "text-softmax", config: { demoCoefficient: 0 } },
];
/** The row keys `--text-rows` accepts. */
export const TEXT_ROWS = VARIANTS.map((v) => v.key);

type Seeded = { cloned: Evaluation; final: Evaluation; seconds: number; cpu: number };

async function trainOnce(v: Variant, dist: TaskDistribution, seed: number, held: ReturnType<typeof lockHeldOutSet>): Promise<Seeded> {
  const demos = collectDemonstrations(env, [{ id: "expert", policyFor: deskTextExpert }], { distribution: dist, count: 400, seed: `bench-text-${dist.version}-${seed}` });
  const sorted = [...demos].sort((a, b) => (a.id < b.id ? -1 : 1));
  const data = { id: `ds-text-${seed}`, digest: digestOf(sorted) as Digest, records: sorted };
  const parent = initialPolicy(v.kind, env) as TextPolicy | MlpPolicy;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const s = textPolicyFamily.start({ environment: env, distribution: dist, seed: `bench-text-${seed}`, data, heldOut: null, config: textPolicyFamily.configSchema.parse(v.config), parent });
  const policyNow = () => (s.candidate() as unknown as { policy: Policy }).policy;
  let cloned: Evaluation | null = null;
  while (!s.finished) {
    const u = await s.step();
    // The last cloning epoch: score before PPO starts.
    if (u.note === "clone" && (s.report() as { phase: string }).phase !== "clone") cloned = evaluatePolicy(env, policyNow(), held);
  }
  const c = process.cpuUsage(c0);
  const final = evaluatePolicy(env, policyNow(), held);
  return { cloned: cloned ?? final, final, seconds: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

/** The scripted expert's score on the same held-out tasks (the ceiling the cloning aims at). */
function expertScore(dist: TaskDistribution, held: ReturnType<typeof lockHeldOutSet>): number {
  let sum = 0;
  for (const seed of held.seeds) {
    const task = env.sampleTask(dist, seed);
    sum += weightedReward(simulateEpisode(env, deskTextExpert(task), task, { episodeKey: `eval/${seed}`, seed: `eval/${seed}`, options: held.options }).totals, DEFAULT_REWARD_WEIGHTS);
  }
  return sum / held.seeds.length;
}

/** `rows`: the row keys to run (all when empty); the paired comparison needs both the pre-trained and the MLP row. */
export async function textDeskRows(seeds: number, desks: ("order" | "hard")[], rows: readonly string[] = []): Promise<void> {
  for (const which of desks) {
    const dist = which === "order" ? ORDER_DESK_DISTRIBUTION : HARD_DESK_DISTRIBUTION;
    const held = lockHeldOutSet(env, dist, 300, "bench-learning-text");
    const variants = (which === "order" ? VARIANTS : [VARIANTS[0]!, VARIANTS[2]!, VARIANTS[3]!]).filter((v) => rows.length === 0 || rows.includes(v.key));
    console.log(`\nReading the ticket, ${dist.version} (${seeds} seeds; 400 expert demonstrations per seed; greedy, 300 held-out tasks; scripted expert ${fmt(expertScore(dist, held))})`);
    console.log("reader                          after cloning                 final (after PPO)             protected passed  s/run  cpu s/run");
    const finals: Record<string, number[]> = {};
    for (const v of variants) {
      const runs: Seeded[] = [];
      for (let k = 0; k < seeds; k++) runs.push(await trainOnce(v, dist, k, held));
      finals[v.label] = runs.map((r) => r.final.meanReward);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const cases = runs[0]!.final.protectedCases;
      console.log(
        `${v.label.padEnd(31)} ${ci(runs.map((r) => r.cloned.meanReward)).padEnd(29)} ${ci(runs.map((r) => r.final.meanReward)).padEnd(29)} ${mean(runs.map((r) => r.final.protectedPassed)).toFixed(1)}/${cases}`.padEnd(110) +
          `${mean(runs.map((r) => r.seconds)).toFixed(1).padStart(6)}  ${mean(runs.map((r) => r.cpu)).toFixed(1).padStart(6)}`,
      );
    }
    const text = finals[VARIANTS[0]!.label];
    const words = finals[VARIANTS[2]!.label];
    if (!text || !words) continue;
    const diff = meanInterval(text.map((t, i) => t - words[i]!));
    const a = meanInterval(text).ci;
    const b = meanInterval(words).ci;
    const apart = a[0] > b[1] || b[0] > a[1];
    console.log(`text − feature MLP, paired by seed: ${ci(text.map((t, i) => t - words[i]!))}; the two 95 % intervals ${apart ? "do not overlap" : "overlap: no clear gain"}${diff.ci[0] <= 0 && diff.ci[1] >= 0 ? " (no gain)" : ""}`);
  }
}
