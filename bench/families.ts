// `npm run bench:families`: milliseconds per update of every learning family through the registry,
// on the support desk with the data sets the tests use (400 expert demonstrations, 600 rated
// interactions, 800 unlabeled tasks), and PII redaction throughput. Median of three runs per family.
import os from "node:os";
import { redactPii } from "@/server/datasets/pii";
import { digestOf, type Digest } from "@/server/digest";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { deskDomainOfTask } from "@/server/environments/support-desk/domains";
import { deskExpert } from "@/server/environments/support-desk/expert";
import type { DatasetRecord } from "@/server/datasets/records";
import { initialClusters } from "@/server/trainers/advanced/pattern-discovery";
import { collectDemonstrations, collectInteractions, observeTasks } from "@/server/trainers/data-sources";
import { lockValidationSet } from "@/server/trainers/evaluate";
import { FAMILY_NAMES, type FamilyName, type LoadedData } from "@/server/trainers/family";
import { continueFamily, startFamily } from "@/server/trainers/families";
import { initialPolicy } from "@/server/trainers/policy";
import { promptTemplate } from "@/server/trainers/prompt/template";

const env = createSupportDesk();
const dist = findDistribution("v2");
const validation = lockValidationSet(env, "v2", 200, "bench");
const data = (records: DatasetRecord[]): LoadedData => {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { id: "ds-bench", digest: digestOf(sorted) as Digest, records: sorted };
};
const demos = collectDemonstrations(env, [{ id: "expert", policyFor: (t) => deskExpert(t, 0.05) }], { distribution: dist, count: 400, seed: "bench", domainOf: deskDomainOfTask, startAt: "2026-01-01T00:00:00.000Z" });
// A mediocre agent: the expert slipping at 35 % of its steps.
const runs = collectInteractions(env, (t) => deskExpert(t, 0.35), "sha256:bench", { distribution: dist, count: 600, seed: "bench" });
const feedback = runs.map(({ interaction, episode }, i): DatasetRecord => ({ kind: "feedback", id: `fb-${i}`, interactionId: interaction.id, raterId: "r", credibility: 0.9, givenAt: "2026-03-01T00:00:00.000Z", rating: episode.outcomeReached ? 5 : 1, preferredOver: null, correction: null, suggestions: [], text: "" }));

const SETUP: Record<FamilyName, { config?: unknown; parent?: unknown; data?: LoadedData; updates: number }> = {
  ppo: { updates: 3 },
  "q-learning": { updates: 3, parent: initialPolicy("q-tabular", env) },
  supervised: { data: data(demos), config: { earlyStopping: { enabled: false } }, updates: 5 },
  feedback: { data: data([...runs.map((r) => r.interaction), ...feedback]), config: { earlyStopping: { enabled: false } }, updates: 5 },
  "fine-tune": { data: data(demos), config: { domain: "incident", earlyStopping: { enabled: false } }, updates: 5 },
  "behaviour-cloning": { data: data(demos), config: { earlyStopping: { enabled: false } }, updates: 5 },
  "maxent-irl": { data: data(demos), updates: 3 },
  continual: { data: data(demos), updates: 5 },
  online: { data: data([...runs.map((r) => r.interaction), ...feedback]), updates: 5 },
  curriculum: { updates: 3 },
  reptile: { data: data(demos), updates: 20 },
  "pattern-discovery": { data: data(observeTasks(env, { distribution: dist, count: 800, seed: "bench" })), parent: initialClusters(env), updates: 2 },
  "prompt-optimization": { parent: promptTemplate("You are a support agent.\n{ticket}"), config: { scorer: "builtin" }, updates: 2 },
  "ppo-mlp": { parent: initialPolicy("mlp-softmax", env), updates: 3 },
  "dqn-mlp": { parent: initialPolicy("mlp-q", env), updates: 3 },
  "text-policy": { parent: initialPolicy("text-softmax", env), data: data(demos), config: { pretrainUpdates: 1, cloneEpochs: 1, ppoUpdates: 1 }, updates: 3 },
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
for (const family of FAMILY_NAMES) {
  const s = SETUP[family];
  const times: number[] = [];
  let updates = 0;
  for (let r = 0; r < 3; r++) {
    const started = startFamily({ family, config: s.config ?? {}, parent: s.parent ?? initialPolicy("softmax-linear", env), environment: env, distribution: dist, seed: `bench-${r}`, data: s.data ?? null, heldOut: null, validation, codeRevision: "0000000" });
    const t0 = performance.now();
    updates = (await continueFamily(started, s.updates)).updates;
    times.push((performance.now() - t0) / updates);
  }
  console.log(`${family.padEnd(20)} ${median(times).toFixed(1).padStart(8)} ms/update (${updates} updates)`);
}
const tickets = Array.from({ length: 2000 }, (_, i) => `Hi Sarah, card 4111 1111 1111 1111 was charged twice (order #${1000 + i}). Call me on +1 (415) 555-2671 or jane.doe${i}@example.com. Thanks, Markus`);
const t0 = performance.now();
for (const t of tickets) redactPii(t);
console.log(`PII redaction         ${((tickets.length / (performance.now() - t0)) * 1000).toFixed(0).padStart(8)} tickets/s`);
