// `npm run bench:tensors` — milliseconds per PPO-MLP minibatch on each TensorFlow.js backend this project can
// use on a CPU: `cpu` (tfjs's plain-JS kernels) and `wasm` (@tensorflow/tfjs-backend-wasm: XNNPACK compiled to
// WebAssembly, shipped inside the npm package). The step is the family's own (neural/ppo-minibatch.ts) on the
// desk's default network — raw features in, 64-64 tanh, 8 actions, and its critic — with minibatches of 64, as
// PPO-MLP trains. Then one whole PPO-MLP update (collect 128 episodes in process + 4 epochs) per backend, and the
// PyTorch figure issue 28 quotes for the same network (not measured here: no PyTorch on this machine).
// Options: --steps 300 --backends wasm,cpu
import os from "node:os";
import { Rng } from "@/server/environments/prng";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { continueFamily, startFamily } from "@/server/trainers/families";
import { lockHeldOutSet, lockValidationSet, pinOf } from "@/server/trainers/evaluate";
import { initialPolicy, type MlpPolicy } from "@/server/trainers/policy";
import { initMlp } from "@/server/trainers/neural/mlp";
import { ppoMlpConfigSchema } from "@/server/trainers/neural/ppo-mlp";
import { emptyFigures, ppoMinibatch, type PpoSamples } from "@/server/trainers/neural/ppo-minibatch";
import { adam, configuredBackend, TF_BACKENDS, tfCpu, toVariables, type TfBackend } from "@/server/trainers/neural/tf";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const STEPS = Math.max(20, Number(arg("steps", "300")));
const BACKENDS = arg("backends", TF_BACKENDS.join(",")).split(",") as TfBackend[];
for (const b of BACKENDS) if (!TF_BACKENDS.includes(b)) throw new Error(`--backends: ${TF_BACKENDS.join(", ")}; not ${b}`);
const PYTORCH_MS = "0.85–1.14";

const env = createSupportDesk();
const parent = initialPolicy("mlp-softmax", env) as MlpPolicy;
const cfg = ppoMlpConfigSchema.parse({});
const nA = env.actions.length;

/** A batch the size of one update's (~1,000 steps) with sparse 0/1 inputs, as the desk's raw features are. */
function samples(width: number, n: number): PpoSamples {
  const rng = Rng.from("bench-tensors");
  const s: PpoSamples = { rows: [], actions: [], oldLogP: [], adv: [], ret: [] };
  for (let i = 0; i < n; i++) {
    s.rows.push(Array.from({ length: width }, () => (rng.next() < 0.15 ? 1 : 0)));
    s.actions.push(rng.int(nA));
    s.oldLogP.push(Math.log(1 / nA));
    s.adv.push(rng.next() * 2 - 1);
    s.ret.push(rng.next());
  }
  return s;
}

const tf = await tfCpu();
const width = parent.network.inputs.length;
const data = samples(width, 1_024);
const rows: string[] = [];
for (const backend of BACKENDS) {
  if (!(await tf.setBackend(backend))) throw new Error(`TensorFlow.js could not start its ${backend} backend`);
  await tf.ready();
  const nets = { actor: toVariables(parent.network), critic: toVariables(initMlp(parent.network.inputs, [64, 64], 1, "tanh", "bench/critic")) };
  const opt = await adam(cfg.learningRate, null);
  const figures = emptyFigures();
  const rng = Rng.from(`bench-tensors/${backend}`);
  const batch = () => Array.from({ length: cfg.minibatchSize }, () => rng.int(data.rows.length));
  for (let i = 0; i < 20; i++) ppoMinibatch(tf, nets, opt, data, batch(), cfg, nA, figures); // warm-up: kernels compiled, pools filled
  const times: number[] = [];
  for (let i = 0; i < STEPS; i++) {
    const t0 = performance.now();
    ppoMinibatch(tf, nets, opt, data, batch(), cfg, nA, figures);
    times.push(performance.now() - t0);
  }
  tf.dispose([...nets.actor.vars, ...nets.critic.vars]);
  opt.dispose();
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;

  // One whole update of the family on this backend: in-process collection (plain TypeScript) + 4 epochs.
  const heldOut = lockHeldOutSet(env, "v2", 50, "bench-tensors");
  const started = startFamily({ family: "ppo-mlp", config: {}, parent, environment: env, distribution: findDistribution("v2"), seed: "bench-tensors", data: null, heldOut: pinOf(heldOut), validation: lockValidationSet(env, "v2", 20, "bench-tensors"), codeRevision: "0000000" });
  const t0 = performance.now();
  await continueFamily(started, 1);
  const update = performance.now() - t0;
  rows.push(`| ${backend}${backend === configuredBackend() ? " (default)" : ""} | ${mean.toFixed(2)} | ${times[Math.floor(times.length / 2)]!.toFixed(2)} | ${times[Math.floor(times.length * 0.99)]!.toFixed(2)} | ${(update / 1000).toFixed(2)} s |`);
}

console.log(`\ntensors bench — node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load ${os.loadavg()[0]!.toFixed(1)}; ${STEPS} timed minibatches of ${cfg.minibatchSize} per backend`);
console.log("| TensorFlow.js backend | ms per PPO-MLP minibatch (mean) | p50 | p99 | one PPO-MLP update (128 episodes + 4 epochs) |");
console.log("| --- | --- | --- | --- | --- |");
for (const r of rows) console.log(r);
console.log(`| PyTorch on one CPU thread (issue 28's figure for the same network; not measured here) | ${PYTORCH_MS} | | | |`);
