// Self-supervised pattern discovery on unlabeled tasks: k-means (Lloyd, with seeded k-means++ starts)
// over the feature vectors of tasks as the agent first sees them, k chosen from a range by the mean
// silhouette (Rousseeuw, 1987). The result is a `lightgate_task_clusters` resource; `clusterDomainOf`
// turns it into a domain function, so fine-tuning, continual learning, Reptile and evaluation can use
// discovered task families where no labels exist. One update = one restart over every k in the range.
import { z } from "zod";
import { digestOf, type Digest } from "@/server/digest";
import { Rng, type RngState } from "@/server/environments/prng";
import { requireRecords, type AnyEnvironment, type CandidateResource, type FamilyDefinition, type FamilySession, type FamilyStart } from "../family";

export const CLUSTERS_RESOURCE_TYPE = "lightgate_task_clusters";

export type TaskClusters = {
  kind: "task-clusters";
  environment: { id: string; specDigest: string };
  featureCount: number;
  centroids: number[][];
  silhouette: number;
  sizes: number[];
};

export function initialClusters(env: Pick<AnyEnvironment, "id" | "specDigest" | "featureNames">): TaskClusters {
  return { kind: "task-clusters", environment: { id: env.id, specDigest: env.specDigest }, featureCount: env.featureNames.length, centroids: [], silhouette: 0, sizes: [] };
}

export function clustersResource(c: TaskClusters): CandidateResource & { clusters: TaskClusters } {
  return { resource_type: CLUSTERS_RESOURCE_TYPE, digest: digestOf(c) as Digest, clusters: c };
}

const sqDist = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return s;
};

/** Index of the nearest centroid (ties to the lower index). */
export function assignCluster(c: TaskClusters, features: ArrayLike<number>): number {
  if (c.centroids.length === 0) throw new Error("these task clusters are empty: run pattern discovery first");
  if (features.length !== c.featureCount) throw new Error(`task has ${features.length} features, the clusters were made for ${c.featureCount}`);
  let best = 0;
  let bestD = Infinity;
  c.centroids.forEach((m, k) => {
    const d = sqDist(features, m);
    if (d < bestD) [best, bestD] = [k, d];
  });
  return best;
}

/** A domain function over first-observation features: "cluster-<i>". */
export function clusterDomainOf(c: TaskClusters): (features: ArrayLike<number>) => string {
  return (f) => `cluster-${assignCluster(c, f)}`;
}

/** Lloyd's k-means from a k-means++ start; returns assignments and centroids. */
export function kMeans(xs: readonly Float64Array[], k: number, rng: Rng, maxIterations = 100): { labels: Int32Array; centroids: Float64Array[]; iterations: number } {
  const n = xs.length;
  const centroids: Float64Array[] = [Float64Array.from(xs[rng.int(n)]!)];
  const d2 = new Float64Array(n).fill(Infinity);
  while (centroids.length < k) {
    const last = centroids[centroids.length - 1]!;
    for (let i = 0; i < n; i++) d2[i] = Math.min(d2[i]!, sqDist(xs[i]!, last));
    centroids.push(Float64Array.from(xs[d2.some((v) => v > 0) ? rng.weighted(d2) : rng.int(n)]!));
  }
  const labels = new Int32Array(n).fill(-1);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    let changed = false;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const d = sqDist(xs[i]!, centroids[c]!);
        if (d < bestD) [best, bestD] = [c, d];
      }
      if (labels[i] !== best) [labels[i], changed] = [best, true];
    }
    if (!changed) break;
    for (let c = 0; c < k; c++) {
      const members = xs.filter((_, i) => labels[i] === c);
      if (members.length === 0) continue; // an emptied cluster keeps its centroid
      const m = new Float64Array(xs[0]!.length);
      for (const x of members) for (let f = 0; f < m.length; f++) m[f]! += x[f]! / members.length;
      centroids[c] = m;
    }
  }
  return { labels, centroids, iterations };
}

/** Mean silhouette over a precomputed distance matrix (singletons score 0). */
export function silhouette(dist: readonly Float64Array[], labels: ArrayLike<number>, k: number): number {
  const n = dist.length;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const sum = new Float64Array(k);
    const count = new Int32Array(k);
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      sum[labels[j]!]! += dist[i]![j]!;
      count[labels[j]!]!++;
    }
    const own = labels[i]!;
    if (count[own] === 0) continue;
    const a = sum[own]! / count[own]!;
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && count[c]! > 0) b = Math.min(b, sum[c]! / count[c]!);
    if (Number.isFinite(b)) total += (b - a) / Math.max(a, b);
  }
  return total / n;
}

export function distanceMatrix(xs: readonly Float64Array[]): Float64Array[] {
  const d = xs.map(() => new Float64Array(xs.length));
  for (let i = 0; i < xs.length; i++) for (let j = i + 1; j < xs.length; j++) d[i]![j] = d[j]![i] = Math.sqrt(sqDist(xs[i]!, xs[j]!));
  return d;
}

export const patternDiscoveryConfigSchema = z
  .object({
    minClusters: z.number().int("minClusters must be an integer").min(2, "minClusters must be ≥ 2").default(2),
    maxClusters: z.number().int("maxClusters must be an integer").min(2, "maxClusters must be ≥ 2").max(50, "maxClusters must be ≤ 50").default(8),
    /** k-means++ restarts (one per update); the best silhouette so far is the candidate. */
    restarts: z.number().int("restarts must be an integer").min(1, "restarts must be ≥ 1").max(100).default(4),
    /** At most this many tasks are clustered (evenly spaced), bounding the O(n²) silhouette. */
    maxTasks: z.number().int("maxTasks must be an integer").min(10, "maxTasks must be ≥ 10").max(5000, "maxTasks must be ≤ 5000").default(800),
  })
  .strict()
  .refine((c) => c.minClusters <= c.maxClusters, { message: "minClusters must not exceed maxClusters", path: ["minClusters"] });
export type PatternDiscoveryConfig = z.output<typeof patternDiscoveryConfigSchema>;

type PdState = { best: TaskClusters | null; byK: Record<string, number>; updates: number; rng: RngState };

class PatternDiscoverySession implements FamilySession {
  readonly family = "pattern-discovery" as const;
  readonly #init: FamilyStart<PatternDiscoveryConfig, TaskClusters>;
  readonly #xs: Float64Array[];
  readonly #dist: Float64Array[];
  #s: PdState;
  readonly #rng: Rng;

  constructor(init: FamilyStart<PatternDiscoveryConfig, TaskClusters>, state?: PdState) {
    this.#init = init;
    const tasks = requireRecords("pattern-discovery", init.data, "task").sort((a, b) => (a.id < b.id ? -1 : 1));
    const step = Math.max(1, tasks.length / init.config.maxTasks);
    const picked = Array.from({ length: Math.min(tasks.length, init.config.maxTasks) }, (_, i) => tasks[Math.floor(i * step)]!);
    for (const t of picked) if (t.features.length !== init.environment.featureNames.length) throw new Error(`task ${t.id} has ${t.features.length} features, ${init.environment.id} has ${init.environment.featureNames.length}`);
    if (picked.length <= init.config.maxClusters) throw new Error(`pattern discovery needs more tasks (${picked.length}) than maxClusters (${init.config.maxClusters})`);
    this.#xs = picked.map((t) => Float64Array.from(t.features));
    this.#dist = distanceMatrix(this.#xs);
    this.#s = state ? structuredClone(state) : { best: null, byK: {}, updates: 0, rng: Rng.from(`${init.seed}/pattern-discovery`).state() };
    this.#rng = Rng.fromState(this.#s.rng);
  }

  get updates() {
    return this.#s.updates;
  }
  get finished() {
    return this.#s.updates >= this.#init.config.restarts;
  }

  async step() {
    if (this.finished) throw new Error("all restarts have run: no more updates");
    const cfg = this.#init.config;
    let roundBest = -Infinity;
    for (let k = cfg.minClusters; k <= cfg.maxClusters; k++) {
      const { labels, centroids } = kMeans(this.#xs, k, this.#rng);
      const score = silhouette(this.#dist, labels, k);
      this.#s.byK[k] = Math.max(this.#s.byK[k] ?? -Infinity, score);
      roundBest = Math.max(roundBest, score);
      if (!this.#s.best || score > this.#s.best.silhouette) {
        const sizes = Array.from({ length: k }, (_, c) => labels.filter((l) => l === c).length);
        this.#s.best = { ...initialClusters(this.#init.environment), centroids: centroids.map((m) => Array.from(m)), silhouette: score, sizes };
      }
    }
    this.#s.updates++;
    return { update: this.#s.updates, finished: this.finished, figures: { bestSilhouette: this.#s.best!.silhouette, roundSilhouette: roundBest, clusters: this.#s.best!.centroids.length } };
  }

  candidate() {
    return clustersResource(this.#s.best ?? this.#init.parent);
  }
  report() {
    return { tasks: this.#xs.length, silhouetteByK: this.#s.byK, chosenK: this.#s.best?.centroids.length ?? 0, sizes: this.#s.best?.sizes ?? [] };
  }
  state(): PdState {
    return { ...structuredClone(this.#s), rng: this.#rng.state() };
  }
}

export const patternDiscoveryFamily: FamilyDefinition<typeof patternDiscoveryConfigSchema, TaskClusters> = {
  name: "pattern-discovery",
  description: "Discovers task families in unlabeled tasks (k-means, k by silhouette); other trainers use the clusters as domains.",
  resourceKind: "task-clusters",
  parentKind: CLUSTERS_RESOURCE_TYPE,
  configSchema: patternDiscoveryConfigSchema,
  reads: ["task"],
  spanFamilies: ["agent.step", "reward"],
  parentOf(resource, env) {
    const c = resource as TaskClusters;
    if (!c || c.kind !== "task-clusters") throw new Error("pattern-discovery's parent must be a task-clusters resource (initialClusters(env) to start)");
    if (c.environment.id !== env.id || c.environment.specDigest !== env.specDigest) throw new Error(`the parent clusters are for ${c.environment.id} ${c.environment.specDigest}`);
    return c;
  },
  start: (init, state) => new PatternDiscoverySession(init, state as PdState | undefined),
};
