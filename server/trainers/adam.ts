// Adam (Kingma & Ba, 2015) over a flat parameter vector, with its moments kept for exact checkpoints.
export type AdamState = { t: number; m: number[]; v: number[] };

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPS = 1e-8;

export class Adam {
  t = 0;
  readonly m: Float64Array;
  readonly v: Float64Array;

  constructor(size: number, state?: AdamState) {
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
    if (state) {
      if (state.m.length !== size || state.v.length !== size) throw new Error(`optimizer state holds ${state.m.length} moments, the model has ${size} parameters`);
      this.t = state.t;
      this.m.set(state.m);
      this.v.set(state.v);
    }
  }

  /** One descent step: params −= lr · m̂ / (√v̂ + ε). */
  step(params: Float64Array, grad: Float64Array, lr: number): void {
    this.t++;
    const c1 = 1 - BETA1 ** this.t;
    const c2 = 1 - BETA2 ** this.t;
    for (let i = 0; i < params.length; i++) {
      const g = grad[i]!;
      const m = BETA1 * this.m[i]! + (1 - BETA1) * g;
      const v = BETA2 * this.v[i]! + (1 - BETA2) * g * g;
      this.m[i] = m;
      this.v[i] = v;
      params[i] = params[i]! - (lr * (m / c1)) / (Math.sqrt(v / c2) + EPS);
    }
  }

  state(): AdamState {
    return { t: this.t, m: Array.from(this.m), v: Array.from(this.v) };
  }
}

/** Plain gradient descent, for configs that ask for it. */
export function sgdStep(params: Float64Array, grad: Float64Array, lr: number): void {
  for (let i = 0; i < params.length; i++) params[i] = params[i]! - lr * grad[i]!;
}
