// TensorFlow.js on the CPU — no native binaries, no GPU: it runs on the two shared cores — and the bridge between
// the JSON networks of neural/mlp.ts and tfjs variables. A training step builds variables from the JSON, lets a
// tfjs Adam optimizer take its steps, and writes the weights and the optimizer's moments back to JSON — so a
// checkpoint is plain data and a restored session continues bit for bit (both backends are deterministic in one
// thread; float32 throughout).
// The backend: `wasm` (default; @tensorflow/tfjs-backend-wasm, XNNPACK kernels compiled to WebAssembly, its .wasm
// files inside the npm package — `npm run bench:tensors`: ~3× the plain-JS kernels per PPO minibatch here) or
// `cpu` (tfjs's plain-JS kernels), chosen by LIGHTGATE_TF_BACKEND. A checkpoint records floats, not the backend:
// a run resumed on the other backend continues, though not bit for bit.
// tfjs is loaded on first use, not at import: every process that lists the families (the server, each test
// file) would otherwise pay its ~2 s start-up.
import type * as Tf from "@tensorflow/tfjs";
import type { Mlp } from "./mlp";

export const TF_BACKENDS = ["wasm", "cpu"] as const;
export type TfBackend = (typeof TF_BACKENDS)[number];

let loaded: typeof Tf | null = null;
let ready: Promise<typeof Tf> | null = null;

/** The backend LIGHTGATE_TF_BACKEND names (wasm unless set); anything else is refused, naming the choices. */
export function configuredBackend(env: NodeJS.ProcessEnv = process.env): TfBackend {
  const name = env.LIGHTGATE_TF_BACKEND?.trim() || "wasm";
  if (!(TF_BACKENDS as readonly string[]).includes(name)) throw new Error(`LIGHTGATE_TF_BACKEND must be ${TF_BACKENDS.join(" or ")}, not ${JSON.stringify(name.slice(0, 40))}`);
  return name as TfBackend;
}

/** tfjs with the configured backend selected (once per process). Everything below needs it to have resolved. */
export function tfCpu(): Promise<typeof Tf> {
  ready ??= (async () => {
    const backend = configuredBackend();
    const m = await import("@tensorflow/tfjs");
    if (backend === "wasm") await import("@tensorflow/tfjs-backend-wasm");
    if (!(await m.setBackend(backend))) throw new Error(`TensorFlow.js could not start its ${backend} backend`);
    await m.ready();
    loaded = m;
    return m;
  })();
  return ready;
}

/** The loaded module, for the synchronous helpers (a caller awaits tfCpu() first). */
function tfm(): typeof Tf {
  if (!loaded) throw new Error("TensorFlow.js is not loaded yet: await tfCpu() first");
  return loaded;
}

export type TfNet = { vars: Tf.Variable[]; activation: Mlp["activation"]; inputs: number[] };

/** Variables holding an MLP's layers, in a fixed order (kernel, bias per layer) the optimizer's state follows. */
export function toVariables(m: Mlp): TfNet {
  const vars: Tf.Variable[] = [];
  let fanIn = m.inputs.length;
  for (const l of m.layers) {
    // A variable made from a tensor keeps that tensor alive beside it: build both inside tidy (the variable survives).
    const shape: [number, number] = [fanIn, l.units];
    vars.push(tfm().tidy(() => tfm().variable(tfm().tensor2d(l.kernel, shape), true)));
    vars.push(tfm().tidy(() => tfm().variable(tfm().tensor1d(l.bias), true)));
    fanIn = l.units;
  }
  return { vars, activation: m.activation, inputs: m.inputs };
}

export function fromVariables(net: TfNet): Mlp {
  const layers = [];
  for (let i = 0; i < net.vars.length; i += 2) {
    const kernel = net.vars[i]!;
    layers.push({ kernel: Array.from(kernel.dataSync()), bias: Array.from(net.vars[i + 1]!.dataSync()), units: kernel.shape[1]! });
  }
  return { inputs: [...net.inputs], activation: net.activation, layers };
}

/** The network's outputs for a batch [n, inputs] (hidden layers activated, the last linear). */
export function forward(net: TfNet, x: Tf.Tensor2D): Tf.Tensor2D {
  let h: Tf.Tensor2D = x;
  for (let i = 0; i < net.vars.length; i += 2) {
    h = tfm().add(tfm().matMul(h, net.vars[i] as Tf.Tensor2D), net.vars[i + 1]!);
    if (i + 2 < net.vars.length) h = net.activation === "relu" ? tfm().relu(h) : tfm().tanh(h);
  }
  return h;
}

/** Rows of raw inputs (the network's input indices picked from full feature vectors) as a tensor. */
export function inputBatch(rows: readonly (readonly number[])[], width: number): Tf.Tensor2D {
  const flat = new Float32Array(rows.length * width);
  rows.forEach((r, i) => flat.set(r, i * width));
  return tfm().tensor2d(flat, [rows.length, width]);
}

/**
 * One optimizer step on `loss` over `vars`, the gradients first scaled down to a global L2 norm of at most
 * `maxNorm` (0: no clipping). Returns the norm before clipping. Call inside tf.tidy.
 */
export function clippedStep(opt: Tf.Optimizer, loss: () => Tf.Scalar, vars: Tf.Variable[], maxNorm: number): number {
  const tf = tfm();
  const { value, grads } = opt.computeGradients(loss, vars);
  const names = Object.keys(grads);
  const norm = Math.sqrt(tf.addN(names.map((k) => tf.sum(tf.square(grads[k]!)))).dataSync()[0]!);
  const scale = maxNorm > 0 && norm > maxNorm ? maxNorm / norm : 1;
  opt.applyGradients(scale === 1 ? grads : Object.fromEntries(names.map((k) => [k, tf.mul(grads[k]!, scale)])));
  value.dispose();
  return norm;
}

export type OptimizerState = { shape: number[]; values: number[] }[];

/** An Adam optimizer, with its moments and step count restored when given. */
export async function adam(learningRate: number, state: OptimizerState | null): Promise<Tf.AdamOptimizer> {
  const opt = tfm().train.adam(learningRate);
  if (state) {
    const tensors = state.map((w) => tfm().tensor(w.values, w.shape));
    await opt.setWeights(tensors.map((tensor, i) => ({ name: `w${i}`, tensor })));
    tfm().dispose(tensors);
  }
  return opt;
}

export async function optimizerState(opt: Tf.Optimizer): Promise<OptimizerState> {
  const weights = await opt.getWeights();
  const out = weights.map((w) => ({ shape: [...w.tensor.shape], values: Array.from(w.tensor.dataSync()) }));
  // The step count is a fresh scalar; the moments belong to the optimizer (disposed with it).
  tfm().dispose(weights[0]!.tensor);
  return out;
}


export type { Scalar } from "@tensorflow/tfjs";
