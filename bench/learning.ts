// `npm run bench:learning`: what every learning family actually learns. For each family, S seeds (≥ 3):
// the parent's and the candidate's mean reward on a locked held-out set the trainers never read (they
// select on their own validation split), the gain's 95 % t interval over the seeds, updates used and wall
// time per run. Then MLP vs linear PPO on the raw features, and APO with the built-in responder and with a
// local fake OpenAI-compatible endpoint (a second process would be fairer; in-process keeps it offline).
// Then who-refunds-is-plan-XOR-market (v5-refunds): linear PPO (with crosses, on the raw features) vs PPO-MLP.
// Then reading the ticket (learning/text-desk.ts): the text policy vs the feature MLP on the text desks, ≥ 5 seeds;
// and rows that can separate methods (learning/separation.ts): continual learning on conflicting tasks, curriculum
// vs shuffled, ≥ 5 seeds.
// Options: --seeds N (default 3), --only fam1,fam2 (or section keys: mlp-vs-linear, linear-raw, linear-hard,
// mlp-hard, dqn-hard, refunds, linear-refunds, linear-raw-refunds, linear-raw-refunds-lr, mlp-refunds, apo-endpoint,
// text, text-order, text-hard, separation, continual-conflict, curriculum-order), --text-rows r1,r2 (of the text
// sections' rows: pretrained, no-pretraining, mlp, plain-ppo; all by default), --scale F
// (multiplies update counts; 1 by default). CPU seconds per run are steadier than wall seconds under load.
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { digestOf, type Digest } from "@/server/digest";
import type { DatasetRecord } from "@/server/datasets/records";
import { createSupportDesk, findDistribution, HARD_DESK_DISTRIBUTION, REFUND_DESK_DISTRIBUTION } from "@/server/environments/support-desk";
import type { TaskDistribution } from "@/server/environments/types";
import { deskDomainOfTask } from "@/server/environments/support-desk/domains";
import { deskExpert } from "@/server/environments/support-desk/expert";
import { initialClusters } from "@/server/trainers/advanced/pattern-discovery";
import { collectDemonstrations, collectInteractions, observeTasks } from "@/server/trainers/data-sources";
import { evaluatePolicy, lockHeldOutSet, lockValidationSet, pinOf, type HeldOutSet } from "@/server/trainers/evaluate";
import { meanInterval } from "@/server/trainers/evaluation/intervals";
import { FAMILY_NAMES, type AnyEnvironment, type FamilyName, type LoadedData } from "@/server/trainers/family";
import { continueFamily, startFamily } from "@/server/trainers/families";
import { rawFeatureIndices } from "@/server/trainers/neural/mlp";
import { initialPolicy, type Policy } from "@/server/trainers/policy";
import { builtinResponder } from "@/server/trainers/prompt/builtin";
import { textEpisode } from "@/server/trainers/prompt/episode";
import { endpointFromEnv, openaiResponder } from "@/server/trainers/prompt/openai";
import type { Responder } from "@/server/trainers/prompt/responder";
import { promptTemplate } from "@/server/trainers/prompt/template";
import { TEXT_ROWS, textDeskRows } from "./learning/text-desk";
import { continualConflictRows, curriculumRows } from "./learning/separation";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : dflt;
};
const SEEDS = Math.max(3, Number(arg("seeds", "3")));
const ONLY = arg("only", "").split(",").filter(Boolean);
const SCALE = Number(arg("scale", "1"));

const env = createSupportDesk();
const dist = findDistribution("v2");
const validation = lockValidationSet(env, "v2", 200, "bench-learning");
const heldOut = lockHeldOutSet(env, "v2", 300, "bench-learning");
const data = (records: DatasetRecord[]): LoadedData => {
  const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { id: "ds-bench", digest: digestOf(sorted) as Digest, records: sorted };
};
const demos = collectDemonstrations(env, [{ id: "expert", policyFor: (t) => deskExpert(t, 0.05) }, { id: "novice", policyFor: (t) => deskExpert(t, 0.4), share: 0.33 }], { distribution: dist, count: 400, seed: "bench", domainOf: deskDomainOfTask, startAt: "2026-01-01T00:00:00.000Z" });
const runs = collectInteractions(env, (t) => deskExpert(t, 0.35), "sha256:bench", { distribution: dist, count: 600, seed: "bench" });
const feedback = runs.map(({ interaction, episode }, i): DatasetRecord => ({ kind: "feedback", id: `fb-${i}`, interactionId: interaction.id, raterId: "r", credibility: 0.9, givenAt: "2026-03-01T00:00:00.000Z", rating: episode.outcomeReached ? 5 : 1, preferredOver: null, correction: null, suggestions: [], text: "" }));
const STARTER = promptTemplate("You are a support agent. Answer the customer's question.\n{ticket}");

type Setup = { config?: unknown; parent?: unknown; data?: LoadedData; updates: number };
const SETUP: Record<FamilyName, Setup> = {
  ppo: { updates: 40 },
  "q-learning": { updates: 30, parent: initialPolicy("q-tabular", env) },
  supervised: { data: data(demos), updates: 40 },
  feedback: { data: data([...runs.map((r) => r.interaction), ...feedback]), updates: 40 },
  "fine-tune": { data: data(demos), config: { domain: "incident" }, updates: 30 },
  "behaviour-cloning": { data: data(demos), updates: 40 },
  "maxent-irl": { data: data(demos), updates: 12 },
  continual: { data: data(demos), updates: 20 },
  online: { data: data([...runs.map((r) => r.interaction), ...feedback]), updates: 10 },
  curriculum: { updates: 40 },
  reptile: { data: data(demos), updates: 30 },
  "pattern-discovery": { data: data(observeTasks(env, { distribution: dist, count: 800, seed: "bench" })), parent: initialClusters(env), updates: 3 },
  "prompt-optimization": { parent: STARTER, config: { scorer: "builtin" }, updates: 8 },
  "ppo-mlp": { parent: initialPolicy("mlp-softmax", env), updates: 40 },
  "dqn-mlp": { parent: initialPolicy("mlp-q", env), updates: 30 },
  "text-policy": { parent: initialPolicy("text-softmax", env), data: data(demos), updates: 20 },
};

/** Mean reward of a resource on the held-out set: a policy by evaluatePolicy, a prompt by the built-in responder. */
async function heldOutReward(resource: unknown, w: World = STANDARD, responder: Responder = builtinResponder): Promise<number | null> {
  const r = resource as { resource_type?: string; policy?: Policy; template?: string; kind?: string };
  if (r.resource_type === "lightgate_policy") return evaluatePolicy(w.env, r.policy!, w.heldOut).meanReward;
  if (r.kind && ["softmax-linear", "q-tabular", "mlp-softmax", "mlp-q", "text-softmax"].includes(r.kind)) return evaluatePolicy(w.env, r as Policy, w.heldOut).meanReward;
  const template = r.template;
  if (typeof template !== "string") return null;
  const eps = await Promise.all(w.heldOut.seeds.map((seed) => textEpisode(w.env, responder, template, w.env.sampleTask(w.dist, seed), `eval/${seed}`)));
  return eps.reduce((a, e) => a + e.reward, 0) / eps.length;
}

type World = { name: string; env: AnyEnvironment; dist: TaskDistribution; heldOut: HeldOutSet; validation: HeldOutSet };
const STANDARD: World = { name: "v2", env, dist, heldOut, validation };

/** The standard desk seen through its raw features only (the hand-made crosses dropped): linear's handicap without them. */
function rawOnly(base: AnyEnvironment): AnyEnvironment {
  const keep = rawFeatureIndices(base.featureNames);
  const featureNames = keep.map((i) => base.featureNames[i]!);
  return {
    ...base,
    featureNames,
    specDigest: digestOf({ base: base.specDigest, features: featureNames }),
    observe(state: unknown) {
      const o = base.observe(state);
      return { features: Float64Array.from(keep, (i) => o.features[i]!), key: o.key };
    },
  };
}
const rawEnv = rawOnly(env);
const RAW: World = { name: "v2-raw", env: rawEnv, dist, heldOut: lockHeldOutSet(rawEnv, "v2", 300, "bench-learning"), validation: lockValidationSet(rawEnv, "v2", 200, "bench-learning") };
const hardEnv = createSupportDesk({ variant: "text" });
const HARD: World = { name: "v4-text", env: hardEnv, dist: HARD_DESK_DISTRIBUTION, heldOut: lockHeldOutSet(hardEnv, HARD_DESK_DISTRIBUTION, 300, "bench-learning"), validation: lockValidationSet(hardEnv, HARD_DESK_DISTRIBUTION, 200, "bench-learning") };

// v5-refunds: who refunds is plan XOR market, which no linear policy on these features can represent.
const REFUNDS: World = { name: "v5-refunds", env, dist: REFUND_DESK_DISTRIBUTION, heldOut: lockHeldOutSet(env, REFUND_DESK_DISTRIBUTION, 300, "bench-learning"), validation: lockValidationSet(env, REFUND_DESK_DISTRIBUTION, 200, "bench-learning") };
const REFUNDS_RAW: World = { name: "v5-refunds-raw", env: rawEnv, dist: REFUND_DESK_DISTRIBUTION, heldOut: lockHeldOutSet(rawEnv, REFUND_DESK_DISTRIBUTION, 300, "bench-learning"), validation: lockValidationSet(rawEnv, REFUND_DESK_DISTRIBUTION, 200, "bench-learning") };

const fmt = (x: number) => (x >= 0 ? "+" : "") + x.toFixed(3);
const ci = (xs: number[]) => {
  const i = meanInterval(xs);
  return `${fmt(i.estimate)} [${fmt(i.ci[0])}, ${fmt(i.ci[1])}]`;
};

/** A softmax candidate acting as published (greedy) and as it would sampling at temperature 1: reward, protected cases. */
type Served = { greedy: number; sampled: number; protectedGreedy: number; protectedSampled: number; protectedCases: number };
type Row = { before: number[]; after: number[]; updates: number[]; seconds: number[]; cpu: number[]; served: Served[] };

function servedBothWays(candidate: unknown, w: World): Served | null {
  const policy = (candidate as { resource_type?: string; policy?: Policy }).policy;
  if (!policy || (policy.kind !== "softmax-linear" && policy.kind !== "mlp-softmax" && policy.kind !== "text-softmax")) return null;
  const greedy = evaluatePolicy(w.env, { ...policy, serving: { mode: "greedy" } }, w.heldOut);
  const sampled = evaluatePolicy(w.env, { ...policy, serving: { mode: "sample", temperature: 1 } }, w.heldOut);
  return { greedy: greedy.meanReward, sampled: sampled.meanReward, protectedGreedy: greedy.protectedPassed, protectedSampled: sampled.protectedPassed, protectedCases: greedy.protectedCases };
}

async function bench(family: FamilyName, s: Setup, w: World = STANDARD): Promise<Row> {
  const row: Row = { before: [], after: [], updates: [], seconds: [], cpu: [], served: [] };
  for (let k = 0; k < SEEDS; k++) {
    const parent = s.parent ?? initialPolicy("softmax-linear", w.env);
    const started = startFamily({ family, config: s.config ?? {}, parent, environment: w.env, distribution: w.dist, seed: `bench-learning-${w.name}-${k}`, data: s.data ?? null, heldOut: pinOf(w.heldOut), validation: w.validation, codeRevision: "0000000" });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = await continueFamily(started, Math.max(1, Math.round(s.updates * SCALE)));
    row.seconds.push((performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    row.cpu.push((c.user + c.system) / 1e6);
    row.updates.push(result.updates);
    const before = await heldOutReward(parent, w);
    const after = await heldOutReward(result.candidate, w);
    if (before !== null && after !== null) {
      row.before.push(before);
      row.after.push(after);
    }
    const served = servedBothWays(result.candidate, w);
    if (served) row.served.push(served);
  }
  return row;
}

console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}; ${SEEDS} seeds; held-out: 300 locked tasks of each row's distribution (v2 unless named), never read by a trainer`);
console.log("family               held-out before → after (mean [95 % t interval] over seeds)            gain              updates  s/run  cpu s/run");
const line = (label: string, r: Row) => {
  const what = r.after.length ? `${ci(r.before)} → ${ci(r.after)}   ${ci(r.after.map((a, i) => a - r.before[i]!))}` : "(produces task clusters: no reward of its own)";
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(`${label.padEnd(20)} ${what}  ${String(Math.round(mean(r.updates))).padStart(5)}  ${mean(r.seconds).toFixed(1).padStart(6)}  ${mean(r.cpu).toFixed(1).padStart(6)}  (load ${os.loadavg()[0]!.toFixed(1)})`);
};
const familyRows: [string, Row][] = [];
for (const family of FAMILY_NAMES) {
  if (ONLY.length && !ONLY.includes(family)) continue;
  const row = await bench(family, SETUP[family]);
  familyRows.push([family, row]);
  line(family, row);
}

// ——— Serving: the same trained softmax candidates, as published (greedy) and sampling at temperature 1 ———
if (familyRows.some(([, r]) => r.served.length)) {
  console.log("\nServing mode (held-out reward and protected cases passed, mean [95 % t interval] over seeds): greedy, as trainers publish, vs sampling at T = 1");
  const avg = (xs: number[]) => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(1);
  for (const [family, r] of familyRows) {
    if (!r.served.length) continue;
    const v = (k: keyof Served) => r.served.map((x) => x[k]);
    const cases = r.served[0]!.protectedCases;
    console.log(
      `${family.padEnd(20)} greedy ${ci(v("greedy"))}  sampled ${ci(v("sampled"))}  greedy − sampled ${ci(r.served.map((x) => x.greedy - x.sampled))}  protected ${avg(v("protectedGreedy"))}/${cases} vs ${avg(v("protectedSampled"))}/${cases}`,
    );
  }
}

// ——— MLP vs linear: with the hand-made crosses, on the raw features only, and on the hard desk ———
const section = (key: string) => !ONLY.length || ONLY.includes("mlp-vs-linear") || ONLY.includes(key);
if (["linear-raw", "linear-hard", "mlp-hard", "dqn-hard"].some(section)) {
  console.log("\nMLP vs linear (PPO rows: same updates and episodes per update)");
  const hardUpdates = 60;
  if (section("linear-raw")) line("PPO linear, raw v2", await bench("ppo", { updates: SETUP.ppo.updates, parent: initialPolicy("softmax-linear", rawEnv) }, RAW));
  if (section("linear-hard")) line("PPO linear, v4-text", await bench("ppo", { updates: hardUpdates, parent: initialPolicy("softmax-linear", hardEnv) }, HARD));
  if (section("mlp-hard")) line("PPO MLP, v4-text", await bench("ppo-mlp", { updates: hardUpdates, parent: initialPolicy("mlp-softmax", hardEnv) }, HARD));
  if (section("dqn-hard")) line("DQN MLP, v4-text", await bench("dqn-mlp", { updates: SETUP["dqn-mlp"].updates, parent: initialPolicy("mlp-q", hardEnv) }, HARD));
}
// ——— the conjunction (v5-refunds): same updates and episodes for all three; linear's learning rate is its tuned default ———
const refundSection = (key: string) => !ONLY.length || ONLY.includes("refunds") || ONLY.includes(key);
if (["linear-refunds", "linear-raw-refunds", "linear-raw-refunds-lr", "mlp-refunds"].some(refundSection)) {
  console.log("\nWho refunds is plan XOR market (v5-refunds; PPO rows: same updates and episodes per update)");
  const refundUpdates = 80;
  if (refundSection("linear-refunds")) line("PPO linear, v5", await bench("ppo", { updates: refundUpdates }, REFUNDS));
  if (refundSection("linear-raw-refunds")) line("PPO linear, raw v5", await bench("ppo", { updates: refundUpdates, parent: initialPolicy("softmax-linear", rawEnv) }, REFUNDS_RAW));
  // The best of a learning-rate sweep for linear on raw v5 (0.01 … 0.5, 5 seeds): the default 0.05 is not its best here.
  if (refundSection("linear-raw-refunds-lr")) line("PPO linear, raw v5, lr 0.1", await bench("ppo", { updates: refundUpdates, config: { learningRate: 0.1 }, parent: initialPolicy("softmax-linear", rawEnv) }, REFUNDS_RAW));
  if (refundSection("mlp-refunds")) line("PPO MLP, v5", await bench("ppo-mlp", { updates: refundUpdates, parent: initialPolicy("mlp-softmax", env) }, REFUNDS));
}

// ——— reading the ticket: the text policy vs the feature MLP, same phases, ≥ 5 seeds ———
const textSection = (key: string) => !ONLY.length || ONLY.includes("text") || ONLY.includes(key);
const textDesks = (["order", "hard"] as const).filter((d) => textSection(`text-${d}`));
const textRows = arg("text-rows", "").split(",").filter(Boolean);
const unknownRows = textRows.filter((r) => !TEXT_ROWS.includes(r));
if (unknownRows.length) throw new Error(`--text-rows: no row ${unknownRows.join(", ")}; the rows are ${TEXT_ROWS.join(", ")}`);
if (textDesks.length) await textDeskRows(Math.max(5, SEEDS), [...textDesks], textRows);

// ——— rows that can separate methods: conflicting continual tasks, curriculum vs shuffled ———
const separationSection = (key: string) => !ONLY.length || ONLY.includes("separation") || ONLY.includes(key);
// Ten seeds: runs take seconds, and forgetting varies widely from seed to seed.
if (separationSection("continual-conflict")) await continualConflictRows(Math.max(10, SEEDS));
if (separationSection("curriculum-order")) await curriculumRows(Math.max(5, SEEDS), Math.round(40 * SCALE));

// ——— APO against a local fake OpenAI-compatible endpoint (canned: the agent follows "escalate" and "close" instructions) ———
if (!ONLY.length || ONLY.includes("apo-endpoint")) {
  const ESCALATE = "Hand account deletions, legal threats and personal-data requests to a human.";
  const CLOSE = "After answering, record the ticket and close it.";
  let requests = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests++;
      const b = JSON.parse(body) as { model: string; messages: { content: string }[]; seed?: number };
      const system = b.messages[0]!.content;
      const user = b.messages.at(-1)!.content;
      let content: string;
      if (system.startsWith("You review")) content = (b.seed ?? 0) % 2 ? "Escalate protected requests." : "Record and close answered tickets.";
      else if (system.startsWith("You rewrite")) {
        const prompt = user.slice("Prompt:\n".length, user.indexOf("\n\nCritique:"));
        content = `${user.includes("Escalate protected") ? ESCALATE : CLOSE}\n${prompt}`;
      } else {
        const customer = user.split("\n").filter((l) => l.startsWith("Customer")).join(" ");
        const done = user.split("\n").find((l) => l.startsWith("Done so far")) ?? "";
        const vague = !done.includes("clarifying") && /something's not right|I have a problem|it's about my account|not sure|missing something/i.test(customer);
        if (vague) content = "ask_clarifying_question";
        else if (system.includes(ESCALATE) && /delete|remove my account|lawyer|legal|sue\b|personal (data|information)|gdpr/i.test(customer)) content = "escalate_to_human";
        else if (!done.includes("answered")) content = "provide_direct_answer";
        else if (system.includes(CLOSE)) content = done.includes("recorded") ? "close_ticket" : "update_ticket";
        else content = "provide_direct_answer";
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: b.model, choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  Object.assign(process.env, { OPENAI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, OPENAI_MODEL: "fake-model", OPENAI_API_KEY: "sk-bench" });
  const responder = openaiResponder(endpointFromEnv()!, { concurrency: 8, timeoutMs: 30_000, maxRetries: 3 });
  const row: Row = { before: [], after: [], updates: [], seconds: [], cpu: [], served: [] };
  const small = lockValidationSet(env, "v2", 60, "bench-apo-endpoint");
  for (let k = 0; k < SEEDS; k++) {
    const started = startFamily({ family: "prompt-optimization", config: { scorer: "openai", beamWidth: 2, branchFactor: 2, rolloutsPerPrompt: 4, concurrency: 8 }, parent: STARTER, environment: env, distribution: dist, seed: `bench-apo-${k}`, data: null, heldOut: pinOf(heldOut), validation: small, codeRevision: "0000000" });
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await continueFamily(started, 2);
    row.seconds.push((performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    row.cpu.push((c.user + c.system) / 1e6);
    row.updates.push(r.updates);
    row.before.push((await heldOutReward(STARTER, STANDARD, responder))!);
    row.after.push((await heldOutReward(r.candidate, STANDARD, responder))!);
  }
  server.close();
  for (const k of ["OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"]) delete process.env[k];
  console.log(`\nAPO against a local fake OpenAI-compatible endpoint (held-out scored by the same fake model; ${requests} HTTP requests in all)`);
  line("APO, fake endpoint", row);
}
