// Experience replay for Q-learning: a ring buffer of transitions, sampled uniformly or in proportion to
// priority (Schaul et al., 2016) through a sum tree. The whole buffer, tree included, round-trips
// through JSON exactly: rebuilding the tree from its leaves could sum in another order and change
// later draws by a rounding error, which would break bit-exact resume.
import type { Rng } from "@/server/environments/prng";

export type Transition = { key: string; action: number; reward: number; nextKey: string | null };

export type ReplayState = {
  capacity: number;
  position: number;
  size: number;
  maxPriority: number;
  transitions: Transition[];
  /** Sum-tree nodes (1-based heap; leaves from `leaves`), present only for prioritized buffers. */
  tree: number[] | null;
};

export class ReplayBuffer {
  readonly capacity: number;
  readonly prioritized: boolean;
  #position = 0;
  #size = 0;
  #maxPriority = 1;
  readonly #items: Transition[];
  /** tree[1] is the total; leaf i lives at tree[leaves + i]. */
  readonly #tree: Float64Array | null;
  readonly #leaves: number;

  constructor(capacity: number, prioritized: boolean, state?: ReplayState) {
    this.capacity = capacity;
    this.prioritized = prioritized;
    let leaves = 1;
    while (leaves < capacity) leaves *= 2;
    this.#leaves = leaves;
    this.#tree = prioritized ? new Float64Array(2 * leaves) : null;
    this.#items = [];
    if (state) {
      if (state.capacity !== capacity) throw new Error(`replay state has capacity ${state.capacity}, the config says ${capacity}`);
      if ((state.tree !== null) !== prioritized) throw new Error("replay state and config disagree on prioritized replay");
      this.#position = state.position;
      this.#size = state.size;
      this.#maxPriority = state.maxPriority;
      for (const t of state.transitions) this.#items.push({ ...t });
      if (this.#tree && state.tree) this.#tree.set(state.tree);
    }
  }

  get size(): number {
    return this.#size;
  }

  /** Adds a transition; prioritized buffers give it the highest priority seen, so it is replayed soon. */
  push(t: Transition): void {
    const i = this.#position;
    this.#items[i] = t;
    if (this.#tree) this.#setPriority(i, this.#maxPriority);
    this.#position = (i + 1) % this.capacity;
    this.#size = Math.min(this.#size + 1, this.capacity);
  }

  get(i: number): Transition {
    return this.#items[i]!;
  }

  /** `count` indices: uniform, or stratified proportional sampling over the sum tree. */
  sample(count: number, rng: Rng): number[] {
    if (this.#size === 0) return [];
    const out: number[] = [];
    if (!this.#tree) {
      for (let j = 0; j < count; j++) out.push(rng.int(this.#size));
      return out;
    }
    const total = this.#tree[1]!;
    const segment = total / count;
    for (let j = 0; j < count; j++) out.push(this.#find((j + rng.next()) * segment));
    return out;
  }

  /** Probability that one draw picks index i (prioritized buffers only). */
  probability(i: number): number {
    if (!this.#tree) return 1 / this.#size;
    return this.#tree[this.#leaves + i]! / this.#tree[1]!;
  }

  /** Sets transition i's priority (already raised to α by the caller). */
  setPriority(i: number, priority: number): void {
    if (!this.#tree) return;
    this.#setPriority(i, priority);
    if (priority > this.#maxPriority) this.#maxPriority = priority;
  }

  #setPriority(i: number, p: number): void {
    const tree = this.#tree!;
    let node = this.#leaves + i;
    tree[node] = p;
    node >>= 1;
    while (node >= 1) {
      tree[node] = tree[2 * node]! + tree[2 * node + 1]!;
      node >>= 1;
    }
  }

  /** The leaf whose prefix-sum interval contains `mass`. */
  #find(mass: number): number {
    const tree = this.#tree!;
    let node = 1;
    let m = mass;
    while (node < this.#leaves) {
      const left = 2 * node;
      if (m < tree[left]! || tree[left + 1]! === 0) node = left;
      else {
        m -= tree[left]!;
        node = left + 1;
      }
    }
    // Rounding can walk past the filled part by a hair; clamp to a stored transition.
    return Math.min(node - this.#leaves, this.#size - 1);
  }

  state(): ReplayState {
    return {
      capacity: this.capacity,
      position: this.#position,
      size: this.#size,
      maxPriority: this.#maxPriority,
      transitions: this.#items.map((t) => ({ ...t })),
      tree: this.#tree ? Array.from(this.#tree) : null,
    };
  }
}
