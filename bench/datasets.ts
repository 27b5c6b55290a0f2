// `npm run bench:datasets [-- --records 1000000 --feedback 1000000 --runs 3]`: training data at scale.
//  1. Deduplication (exact + MinHash/LSH near-duplicates) of a million short feedback records — templated
//     texts with a few words changed, grouped by what they say about which interaction — with the time,
//     what was dropped and the process's peak memory.
//  2. Feedback processing: a million ratings, corrections and preferences on 20,000 real support-desk
//     interactions weighted, aggregated and turned into training items, then one epoch of the feedback
//     family through the registry.
// Medians over the runs, with the range and the load average (the machine is shared).
import os from "node:os";
import { deduplicate } from "@/server/datasets/pipeline";
import type { DatasetRecord, Feedback, Interaction } from "@/server/datasets/records";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { deskExpert } from "@/server/environments/support-desk/expert";
import { Rng } from "@/server/environments/prng";
import { collectInteractions } from "@/server/trainers/data-sources";
import { startFamily } from "@/server/trainers/families";
import { initialPolicy } from "@/server/trainers/policy";
import { feedbackConfigSchema, feedbackItems } from "@/server/trainers/supervised/feedback";
import type { SoftmaxLinearPolicy } from "@/server/trainers/policy";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RECORDS = arg("records", 1_000_000);
const FEEDBACK = arg("feedback", 1_000_000);
const RUNS = arg("runs", 3);

const env = createSupportDesk();
const dist = findDistribution("v2");
const words = Array.from({ length: 2_000 }, (_, i) => `w${i.toString(36)}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
/** Wall and CPU seconds of fn: on a shared machine the CPU time is what the work costs, the wall time what it took. */
function timed<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const c = process.cpuUsage(c0);
  return { value, wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

/** Short feedback texts (12–18 words) from 20,000 templates; a fifth are copies, a fifth have 1–2 words changed. */
function shortRecords(n: number): DatasetRecord[] {
  const rng = Rng.from("bench/dedup");
  const templates = Array.from({ length: 20_000 }, () => Array.from({ length: 12 + rng.int(7) }, () => words[rng.int(words.length)]!));
  const out: Feedback[] = [];
  for (let i = 0; i < n; i++) {
    const t = rng.int(templates.length);
    const text = [...templates[t]!];
    const roll = rng.next();
    if (roll < 0.2) for (let k = 1 + rng.int(2); k > 0; k--) text[rng.int(text.length)] = words[rng.int(words.length)]!;
    else if (roll < 0.6) text[rng.int(text.length)] = `n${i.toString(36)}`; // a unique word: a new text
    // The interaction a template is about: near-duplicates only count about the same one.
    out.push({ kind: "feedback", id: `fb-${i.toString(36).padStart(5, "0")}`, interactionId: `int-${t % 5_000}`, raterId: "r", credibility: 1, givenAt: "2026-03-01T00:00:00.000Z", rating: 1 + (t % 5), preferredOver: null, correction: null, suggestions: [], text: text.join(" ") });
  }
  return out;
}

function benchDedup() {
  const records = shortRecords(RECORDS);
  const wall: number[] = [];
  const cpu: number[] = [];
  let details: Record<string, number> = {};
  let kept = 0;
  for (let r = 0; r < RUNS; r++) {
    const t = timed(() => deduplicate(records, 0.85));
    wall.push(t.wall);
    cpu.push(t.cpu);
    details = t.value.details;
    kept = t.value.records.length;
  }
  console.log(`dedup ${RECORDS.toLocaleString("en")} short records (threshold 0.85): ${median(wall).toFixed(1)} s wall median (${range(wall)} s over ${RUNS}), ${median(cpu).toFixed(1)} s CPU (${range(cpu)}); kept ${kept.toLocaleString("en")}, exact ${details.exactDuplicates!.toLocaleString("en")}, near ${details.nearDuplicates!.toLocaleString("en")}; peak RSS ${peakMb()} MB`);
}

function feedbackData(): { interactions: Interaction[]; feedback: Feedback[] } {
  const runs = collectInteractions(env, (t) => deskExpert(t, 0.35), "sha256:bench", { distribution: dist, count: 20_000, seed: "bench/feedback" });
  const interactions = runs.map((r) => r.interaction);
  const rng = Rng.from("bench/feedback");
  const feedback: Feedback[] = [];
  for (let i = 0; i < FEEDBACK; i++) {
    const k = rng.int(runs.length);
    const { interaction, episode } = runs[k]!;
    const roll = rng.next();
    const day = String(1 + rng.int(28)).padStart(2, "0");
    const base = { kind: "feedback" as const, id: `fb-${i.toString(36).padStart(5, "0")}`, interactionId: interaction.id, raterId: `r${rng.int(50)}`, credibility: 0.3 + 0.7 * rng.next(), givenAt: `2026-02-${day}T12:00:00.000Z`, rating: null, preferredOver: null, correction: null, suggestions: [], text: "" };
    if (roll < 0.85) feedback.push({ ...base, rating: episode.outcomeReached ? 4 + rng.int(2) : 1 + rng.int(2) });
    else if (roll < 0.95) feedback.push({ ...base, correction: { step: 0, action: interaction.steps[0]!.action } });
    else feedback.push({ ...base, preferredOver: interactions[(k + 1) % interactions.length]!.id });
  }
  return { interactions, feedback };
}

async function benchFeedback() {
  const t0 = performance.now();
  const { interactions, feedback } = feedbackData();
  console.log(`feedback data: ${interactions.length.toLocaleString("en")} desk interactions, ${feedback.length.toLocaleString("en")} feedback records (made in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const parent = initialPolicy("softmax-linear", env) as SoftmaxLinearPolicy;
  const cfg = feedbackConfigSchema.parse({ earlyStopping: { enabled: false }, maxEpochs: 1 });
  const build: { wall: number; cpu: number }[] = [];
  const epoch: { wall: number; cpu: number }[] = [];
  let counts: Record<string, number> = {};
  let items = 0;
  const data = { id: "ds-bench", digest: `sha256:${"0".repeat(64)}` as const, records: [...interactions, ...feedback] };
  for (let r = 0; r < RUNS; r++) {
    const t = timed(() => feedbackItems(env, parent, interactions, feedback, cfg));
    build.push(t);
    counts = t.value.counts;
    items = t.value.items.length;
    // Through the registry, as a training run would: one update is one epoch over the items.
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const started = startFamily({ family: "feedback", config: { earlyStopping: { enabled: false } }, parent, environment: env, distribution: dist, seed: `bench-${r}`, data, heldOut: null, codeRevision: "0000000" });
    await started.session.step();
    const c = process.cpuUsage(c0);
    epoch.push({ wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 });
  }
  const say = (xs: { wall: number; cpu: number }[]) => `${median(xs.map((x) => x.wall)).toFixed(1)} s wall (${range(xs.map((x) => x.wall))}), ${median(xs.map((x) => x.cpu)).toFixed(1)} s CPU`;
  console.log(`feedback processing of ${feedback.length.toLocaleString("en")} records: weights + aggregation + items ${say(build)}; ${items.toLocaleString("en")} items (${counts.ratedInteractions!.toLocaleString("en")} rated interactions, ${counts.corrections!.toLocaleString("en")} corrections, ${counts.preferences!.toLocaleString("en")} preferences)`);
  console.log(`feedback family start + one epoch through the registry: ${say(epoch)}; peak RSS ${peakMb()} MB`);
}

console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
benchDedup();
await benchFeedback();
console.log(`load after ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
