// The objective terms the supervised families fit a softmax-linear policy with, each with its loss and
// its exact gradient with respect to the logits z = W·x:
// - ce:       imitate an action            −w log π(y|x)                      dz_b = w (π_b − δ_by)
// - unlikely: avoid an action              −w log(1 − π(y|x))                 dz_b = w π_y (δ_by − π_b) / (1 − π_y)
// - pref:     trajectory A over B (DPO, Rafailov et al. 2023), against the parent as reference:
//             −w log σ(β[(log π(A) − log π_ref(A)) − (log π(B) − log π_ref(B))])
import { softmaxInto } from "../policy";

export type Steps = { xs: Float64Array[]; ys: number[] };
export type Item =
  | { kind: "ce"; x: Float64Array; y: number; w: number; group: string }
  | { kind: "unlikely"; x: Float64Array; y: number; w: number; group: string }
  | { kind: "pref"; win: Steps; lose: Steps; /** log π_ref(A) − log π_ref(B) */ refMargin: number; beta: number; w: number; group: string };

const TINY = 1e-12;

/** Adds w·(δ_ab − π_b)·scale·x into grad for every action b (the gradient of log π(a|x), scaled). */
function addLogProbGrad(grad: Float64Array, x: Float64Array, p: Float64Array, a: number, scale: number): void {
  const nF = x.length;
  for (let b = 0; b < p.length; b++) {
    const dz = scale * ((b === a ? 1 : 0) - p[b]!);
    if (dz === 0) continue;
    const row = b * nF;
    for (let f = 0; f < nF; f++) {
      const xf = x[f]!;
      if (xf !== 0) grad[row + f]! += dz * xf;
    }
  }
}

function logProbOf(weights: Float64Array, steps: Steps, p: Float64Array): number {
  let s = 0;
  steps.xs.forEach((x, t) => {
    softmaxInto(weights, x, p);
    s += Math.log(Math.max(p[steps.ys[t]!]!, TINY));
  });
  return s;
}

/**
 * Loss of one item; when `grad` is given, adds the gradient of `scale`·loss into it. `xOf` lets the
 * caller substitute an augmented copy of an input (dropout, noise) for training.
 */
export function itemLoss(weights: Float64Array, item: Item, p: Float64Array, grad: Float64Array | null, scale = 1, xOf: (x: Float64Array) => Float64Array = (x) => x): number {
  switch (item.kind) {
    case "ce": {
      const x = xOf(item.x);
      softmaxInto(weights, x, p);
      if (grad) addLogProbGrad(grad, x, p, item.y, -item.w * scale);
      return -item.w * Math.log(Math.max(p[item.y]!, TINY));
    }
    case "unlikely": {
      const x = xOf(item.x);
      softmaxInto(weights, x, p);
      const py = Math.min(p[item.y]!, 1 - 1e-9);
      // ∂/∂z −log(1 − π_y) = π_y/(1 − π_y) · ∂ log π_y/∂z
      if (grad) addLogProbGrad(grad, x, p, item.y, (item.w * scale * py) / (1 - py));
      return -item.w * Math.log(1 - py);
    }
    case "pref": {
      const win = { xs: item.win.xs.map(xOf), ys: item.win.ys };
      const lose = { xs: item.lose.xs.map(xOf), ys: item.lose.ys };
      const u = item.beta * (logProbOf(weights, win, p) - logProbOf(weights, lose, p) - item.refMargin);
      const sigNeg = 1 / (1 + Math.exp(u)); // σ(−u)
      if (grad) {
        const k = -item.w * scale * sigNeg * item.beta; // dL/du · du/d(log π(A)) ; B enters with the opposite sign
        win.xs.forEach((x, t) => {
          softmaxInto(weights, x, p);
          addLogProbGrad(grad, x, p, win.ys[t]!, k);
        });
        lose.xs.forEach((x, t) => {
          softmaxInto(weights, x, p);
          addLogProbGrad(grad, x, p, lose.ys[t]!, -k);
        });
      }
      // softplus(−u), computed stably
      return item.w * (u > 0 ? Math.log1p(Math.exp(-u)) : -u + Math.log1p(Math.exp(u)));
    }
  }
}

/** Whether the policy's most likely action is the item's target (ce items only; null otherwise). */
export function itemHit(weights: Float64Array, item: Item, p: Float64Array): boolean | null {
  if (item.kind !== "ce") return null;
  softmaxInto(weights, item.x, p);
  let best = 0;
  for (let b = 1; b < p.length; b++) if (p[b]! > p[best]!) best = b;
  return best === item.y;
}

/** log π(steps) under weights — the DPO reference term is this under the parent. */
export function sequenceLogProb(weights: Float64Array, steps: Steps, nA: number): number {
  return logProbOf(weights, steps, new Float64Array(nA));
}

/**
 * The diagonal of the expected Fisher information of π(·|x) over inputs xs, exactly:
 * F[b,f] = mean_x x_f² π_b (1 − π_b). No sampling of actions, so it is deterministic.
 */
export function fisherDiagonal(weights: Float64Array, xs: readonly Float64Array[], nA: number): Float64Array {
  const nF = weights.length / nA;
  const F = new Float64Array(weights.length);
  const p = new Float64Array(nA);
  for (const x of xs) {
    softmaxInto(weights, x, p);
    for (let b = 0; b < nA; b++) {
      const v = p[b]! * (1 - p[b]!);
      const row = b * nF;
      for (let f = 0; f < nF; f++) {
        const xf = x[f]!;
        if (xf !== 0) F[row + f]! += xf * xf * v;
      }
    }
  }
  if (xs.length) for (let i = 0; i < F.length; i++) F[i] = F[i]! / xs.length;
  return F;
}
