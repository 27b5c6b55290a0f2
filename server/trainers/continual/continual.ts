// Incremental learning over a stream of demonstrations whose task distribution changes (environment
// versions, domains). Each update takes the next stream batch (ordered by `recordedAt`):
// 1. its loss under the current weights feeds a Page–Hinkley detector (task-free boundary detection);
//    on a boundary the finished task is consolidated — online EWC: F ← γF + Fisher(current weights,
//    that task's states), anchor ← current weights — and the adaptive controller raises exploration;
// 2. it is learned together with a rehearsal share drawn from a reservoir replay buffer, under the EWC
//    penalty, with the controller's learning rate (raised on a plateau, lowered on a decline of the
//    prequential accuracy — the accuracy on each batch before learning from it);
// 3. its steps enter the replay buffer.
// Retention is reported per domain: accuracy on that domain's stream data when its segment ended and
// at the end of the stream.
import { z } from "zod";
import type { Demonstration } from "@/server/datasets/records";
import { Rng, type RngState } from "@/server/environments/prng";
import { policyCandidate, requireRecords, withWeights, type FamilySession, type FamilyStart, softmaxFamily } from "../family";
import type { SoftmaxLinearPolicy } from "../policy";
import { filterByQuality, imitationItems, qualityFilterSchema } from "../supervised/examples";
import { evenly } from "../supervised/fine-tune";
import { fisherDiagonal, type Item } from "../supervised/objective";
import { SoftmaxFitter } from "../supervised/fitter";
import { AdaptiveController, adaptiveSchema, type AdaptiveState } from "./adaptive";
import { featureShift, featureShiftSchema, PageHinkley, pageHinkleySchema, type PageHinkleyState } from "./change-detector";

const int = (name: string, min: number) => z.number().int(`${name} must be an integer`).min(min, `${name} must be ≥ ${min}`);

export const continualConfigSchema = z
  .object({
    /** Demonstrations consumed per update. */
    streamBatch: int("streamBatch", 1).default(40),
    innerEpochs: int("innerEpochs", 1).max(100).default(3),
    batchSize: int("batchSize", 1).default(32),
    learningRate: z.number().gt(0, "learningRate must be > 0").max(10, "learningRate must be ≤ 10").default(0.05),
    replay: z
      .object({
        enabled: z.boolean().default(true),
        capacity: int("capacity", 1).max(1_000_000).default(1000),
        /** Share of each update's training mix drawn from the buffer (the seed's rehearsal_frequency). */
        rehearsalFraction: z.number().min(0, "rehearsalFraction must be ≥ 0").max(0.9, "rehearsalFraction must be ≤ 0.9").default(0.3),
      })
      .strict()
      .prefault({}),
    ewc: z
      .object({
        enabled: z.boolean().default(true),
        strength: z.number().min(0, "strength must be ≥ 0").default(50),
        /** Online-EWC decay of earlier tasks' Fisher (1 keeps them all at full weight). */
        gamma: z.number().min(0, "gamma must be ≥ 0").max(1, "gamma must be ≤ 1").default(1),
        fisherSamples: int("fisherSamples", 1).default(1000),
      })
      .strict()
      .prefault({}),
    boundaries: z
      .object({
        /** "detect": a statistical change detector on the stream; "labels": trust each record's domain; "none": one long task. */
        mode: z.enum(["detect", "labels", "none"], { error: 'boundaries.mode must be "detect", "labels" or "none"' }).default("detect"),
        /** feature-shift: z tests on the inputs; page-hinkley: on each batch's loss before learning it. */
        detector: z.discriminatedUnion("kind", [featureShiftSchema, pageHinkleySchema]).default({ kind: "feature-shift", alpha: 0.001, window: 500 }),
      })
      .strict()
      .prefault({}),
    adaptive: adaptiveSchema.prefault({}),
    qualityFiltering: qualityFilterSchema.prefault({}),
  })
  .strict();
export type ContinualConfig = z.output<typeof continualConfigSchema>;

/** A step of the stream: demonstration index and step index (the data is pinned, so refs suffice). */
type Ref = [number, number];

type ContinualState = {
  weights: number[];
  position: number;
  updates: number;
  rng: RngState;
  replay: { items: Ref[]; seen: number };
  taskRefs: Ref[];
  fisher: number[] | null;
  anchor: number[] | null;
  detector: PageHinkleyState;
  adaptive: AdaptiveState;
  lastDomain: string | null;
  boundaries: number[];
  trueBoundaries: number[];
  /** Accuracy on a domain's stream data when the stream moved past it (retention's baseline). */
  segmentEnd: Record<string, number>;
  prequential: { update: number; accuracy: number; loss: number; domain: string }[];
};

export function streamOrder(demos: readonly Demonstration[]): Demonstration[] {
  for (const d of demos) if (!d.recordedAt) throw new Error(`continual learning orders its stream by recordedAt; demonstration ${d.id} has none`);
  return [...demos].sort((a, b) => a.recordedAt!.localeCompare(b.recordedAt!) || (a.id < b.id ? -1 : 1));
}

class ContinualSession implements FamilySession {
  readonly family = "continual" as const;
  readonly #init: FamilyStart<ContinualConfig, SoftmaxLinearPolicy>;
  readonly #stream: Demonstration[];
  readonly #items: Item[][];
  readonly #nA: number;
  #s: ContinualState;
  readonly #rng: Rng;
  readonly #detector: PageHinkley;
  readonly #adaptive: AdaptiveController;

  constructor(init: FamilyStart<ContinualConfig, SoftmaxLinearPolicy>, state?: ContinualState) {
    this.#init = init;
    const cfg = init.config;
    this.#stream = streamOrder(filterByQuality(requireRecords("continual", init.data, "demonstration"), cfg.qualityFiltering).kept);
    this.#items = this.#stream.map((d) => imitationItems(init.environment, [d], "uniform"));
    this.#nA = init.environment.actions.length;
    this.#s = state ? structuredClone(state) : {
      weights: [...init.parent.weights], position: 0, updates: 0, rng: Rng.from(`${init.seed}/continual`).state(), replay: { items: [], seen: 0 }, taskRefs: [],
      fisher: null, anchor: null, detector: { n: 0, mean: 0, cum: 0, min: 0 }, adaptive: new AdaptiveController(cfg.adaptive, cfg.learningRate).state(),
      lastDomain: null, boundaries: [], trueBoundaries: [], prequential: [], segmentEnd: {},
    };
    this.#rng = Rng.fromState(this.#s.rng);
    const d = cfg.boundaries.detector;
    this.#detector = new PageHinkley(d.kind === "page-hinkley" ? d : { kind: "page-hinkley", delta: 0, threshold: 1, minObservations: 1 }, this.#s.detector);
    this.#adaptive = new AdaptiveController(cfg.adaptive, cfg.learningRate, this.#s.adaptive);
  }

  get updates() {
    return this.#s.updates;
  }
  get finished() {
    return this.#s.position >= this.#stream.length;
  }

  #item([d, k]: Ref): Item {
    return this.#items[d]![k]!;
  }

  #fitterFor(items: Item[]) {
    return new SoftmaxFitter({ nA: this.#nA, weights: Float64Array.from(this.#s.weights), items, config: fitCfg(this.#init.config, this.#adaptive.learningRate), seed: `${this.#init.seed}/u${this.#s.updates}`, anchor: this.#anchor() });
  }

  #anchor() {
    const s = this.#s;
    const e = this.#init.config.ewc;
    return e.enabled && s.fisher && s.anchor ? { center: Float64Array.from(s.anchor), strength: e.strength, fisher: Float64Array.from(s.fisher) } : null;
  }

  #consolidate() {
    const s = this.#s;
    const e = this.#init.config.ewc;
    if (!e.enabled || s.taskRefs.length === 0) return;
    const xs = evenly(s.taskRefs, e.fisherSamples).map((r) => (this.#item(r) as Extract<Item, { kind: "ce" }>).x);
    const fresh = fisherDiagonal(Float64Array.from(s.weights), xs, this.#nA);
    s.fisher = s.fisher ? s.fisher.map((f, i) => e.gamma * f + fresh[i]!) : Array.from(fresh);
    s.anchor = [...s.weights];
  }

  /** Boundary test on the batch: Page–Hinkley on its loss, or a feature-shift test on its tasks' first observations. */
  #detect(batch: number[], loss: number): boolean {
    const d = this.#init.config.boundaries.detector;
    if (d.kind === "page-hinkley") return this.#detector.observe(loss) && this.#s.updates > 0;
    // One sample per demonstration (its first step: the task as it arrived); steps of one episode are not independent.
    const first = (demo: number) => (this.#items[demo]![0] as Extract<Item, { kind: "ce" }>).x;
    const seen = [...new Set(this.#s.taskRefs.map((r) => r[0]))].slice(-d.window);
    return featureShift(seen.map(first), batch.map(first), d.alpha).shifted;
  }

  async step() {
    if (this.finished) throw new Error("the stream is exhausted: no more updates");
    const cfg = this.#init.config;
    const s = this.#s;
    const batch: number[] = [];
    for (let d = s.position; d < Math.min(this.#stream.length, s.position + cfg.streamBatch); d++) batch.push(d);
    const refs: Ref[] = batch.flatMap((d) => this.#items[d]!.map((_, k) => [d, k] as Ref));
    const fresh = refs.map((r) => this.#item(r));
    const domains = batch.map((d) => this.#stream[d]!.domain);
    const domain = domains[domains.length - 1]!;
    const probe = this.#fitterFor(fresh).evaluate(fresh);
    const accuracy = probe.accuracy ?? 0;

    // A labelled boundary is the batch where a new domain first appears.
    const labelled = s.lastDomain !== null && domains.some((d) => d !== s.lastDomain);
    if (labelled) {
      s.trueBoundaries.push(s.updates + 1);
      const ended = this.#domainItems(s.lastDomain!, s.position);
      s.segmentEnd[s.lastDomain!] = this.#fitterFor(ended).evaluate(ended).accuracy ?? 0;
    }
    const detected = cfg.boundaries.mode === "detect" ? this.#detect(batch, probe.loss) : cfg.boundaries.mode === "labels" && labelled;
    if (detected) {
      s.boundaries.push(s.updates + 1);
      this.#consolidate();
      s.taskRefs = [];
      this.#adaptive.newTask();
    }
    const trigger = this.#adaptive.observe(accuracy);

    const r = cfg.replay;
    const rehearse = r.enabled && s.replay.items.length ? Math.round((fresh.length * r.rehearsalFraction) / (1 - r.rehearsalFraction)) : 0;
    const replayed = Array.from({ length: rehearse }, () => this.#item(s.replay.items[this.#rng.int(s.replay.items.length)]!));
    const fitter = this.#fitterFor([...fresh, ...replayed]);
    for (let e = 0; e < cfg.innerEpochs; e++) fitter.runEpoch();
    s.weights = Array.from(fitter.weights());

    for (const ref of refs) {
      s.replay.seen++;
      if (s.replay.items.length < r.capacity) s.replay.items.push(ref);
      else {
        const j = this.#rng.int(s.replay.seen);
        if (j < r.capacity) s.replay.items[j] = ref;
      }
    }
    s.taskRefs.push(...refs);
    s.position = batch[batch.length - 1]! + 1;
    s.lastDomain = domain;
    s.updates++;
    s.prequential.push({ update: s.updates, accuracy, loss: probe.loss, domain });
    return {
      update: s.updates,
      finished: this.finished,
      figures: { prequentialAccuracy: accuracy, batchLoss: probe.loss, learningRate: this.#adaptive.learningRate, exploration: this.#adaptive.exploration, rehearsed: rehearse, boundary: detected ? 1 : 0 },
      note: `${trigger}${detected ? "; task boundary detected" : ""}`,
    };
  }

  /** Items of one domain among the first `upTo` demonstrations of the stream. */
  #domainItems(domain: string, upTo: number): Item[] {
    return this.#stream.slice(0, upTo).flatMap((d, i) => (d.domain === domain ? this.#items[i]! : []));
  }

  /** Accuracy on each seen domain's stream data now, and retention against the end of its segment. */
  report() {
    const s = this.#s;
    const domains = [...new Set(this.#stream.slice(0, s.position).map((d) => d.domain))];
    const now = Object.fromEntries(domains.map((d) => { const items = this.#domainItems(d, s.position); return [d, this.#fitterFor(items).evaluate(items).accuracy ?? 0]; }));
    const retention = Object.fromEntries(Object.entries(s.segmentEnd).map(([d, end]) => [d, end > 0 ? now[d]! / end : 1]));
    return {
      updates: s.updates,
      detectedBoundaries: s.boundaries,
      labelledBoundaries: s.trueBoundaries,
      accuracyNow: now,
      accuracyAtSegmentEnd: s.segmentEnd,
      retention,
      prequential: s.prequential,
      adaptive: this.#adaptive.state().log,
      replaySize: s.replay.items.length,
    };
  }

  candidate() {
    return policyCandidate(withWeights(this.#init.parent, this.#s.weights, this.#adaptive.exploration));
  }

  state(): ContinualState {
    return { ...structuredClone(this.#s), rng: this.#rng.state(), detector: this.#detector.state(), adaptive: this.#adaptive.state() };
  }
}

function fitCfg(cfg: ContinualConfig, learningRate: number) {
  return {
    batchSize: cfg.batchSize,
    learningRate,
    optimizer: "adam" as const,
    maxEpochs: cfg.innerEpochs,
    validationSplit: 0,
    earlyStopping: { enabled: false, patience: 1, minDelta: 0, restoreBest: false },
    l2: 0,
  };
}

export const continualFamily = softmaxFamily({
  name: "continual",
  description: "Learns a changing stream of demonstrations with replay rehearsal, EWC and Page–Hinkley task-boundary detection; adapts learning rate and exploration.",
  configSchema: continualConfigSchema,
  reads: ["demonstration"],
  start: (init, state) => new ContinualSession(init, state as ContinualState | undefined),
});
