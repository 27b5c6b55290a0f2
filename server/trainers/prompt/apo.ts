// Prompt optimization as Agent Lightning's APO searches (agentlightning/algorithm/apo): a beam of
// prompts; each round, every beam prompt runs a fresh batch of training tickets (its recent rollouts),
// and each of its `branchFactor` edits is a critique of a *random batch* of those rollouts followed by a
// rewrite, sampled at `temperature`; edits are drawn until enough distinct ones exist (up to
// `sampleFactor` × branchFactor draws) and duplicates dropped after; every new prompt is scored on the
// trainer's own validation split (never the locked exam). Protected behaviour is a constraint, not a
// score term: a prompt that fails any protected case of the validation split ranks below every prompt
// that passes them all and is never the candidate. The model (or the built-in responder) sees ticket
// text, never feature names. One update = one beam round.
import { z } from "zod";
import { resolveDistribution } from "@/server/environments/distributions";
import { Rng, streamSeed, type RngState } from "@/server/environments/prng";
import type { EnvTask } from "@/server/environments/types";
import type { FamilyDefinition, FamilySession, FamilyStart } from "../family";
import { BUILTIN_SCORER, builtinResponder } from "./builtin";
import { textEpisode, type TextEpisode } from "./episode";
import { endpointFromEnv, openaiResponder, scorerId, type LlmEndpoint } from "./openai";
import type { Responder, RolloutSummary } from "./responder";
import { PROMPT_RESOURCE_TYPE, promptResource, promptTemplate, type PromptTemplate } from "./template";
import { intField as int } from "@/server/trainers/config-fields";

export const promptOptimizationConfigSchema = z
  .object({
    beamWidth: int("beamWidth", 1, 32, 4),
    branchFactor: int("branchFactor", 1, 32, 4),
    /** Training tickets each beam prompt runs per round: the rollouts critiques sample from. */
    rolloutsPerPrompt: int("rolloutsPerPrompt", 1, 1_000, 16),
    /** Rollouts in the random batch one critique sees (APO's gradient batch). */
    gradientBatch: int("gradientBatch", 1, 64, 4),
    /** Validation tasks when the run has no validation split of its own. */
    validationTasks: int("validationTasks", 1, 10_000, 60),
    /** Sampling temperature of critiques and rewrites. */
    temperature: z.number().min(0, "temperature must be ≥ 0").max(2, "temperature must be ≤ 2").default(1),
    /** Draws allowed per wanted distinct edit before giving up on more. */
    sampleFactor: int("sampleFactor", 1, 10, 3),
    /** Requests in flight at once (language-model path). */
    concurrency: int("concurrency", 1, 64, 4),
    requestTimeoutMs: int("requestTimeoutMs", 100, 600_000, 30_000),
    /** The client's retries on 429 / 5xx / connection errors, with exponential backoff. */
    maxRetries: int("maxRetries", 0, 10, 3),
    /** "auto": the language model when OPENAI_BASE_URL is set, else built-in. */
    scorer: z.enum(["auto", "builtin", "openai"], { error: 'scorer must be "auto", "builtin" or "openai"' }).default("auto"),
    /** Filled in when a run starts (the scorer actually used); a resumed run must find the same one. */
    resolvedScorer: z.string().min(1).nullable().default(null),
  })
  .strict();
export type PromptOptimizationConfig = z.output<typeof promptOptimizationConfigSchema>;

type Scored = { template: string; score: number; successRate: number; protectedCases: number; protectedFailures: number; parseFailures: number };
type ApoState = { beam: Scored[]; updates: number; rng: RngState; evaluated: number; parseFailures: number; duplicatesDropped: number; history: { round: number; best: number; feasible: boolean }[] };

export function resolveScorer(cfg: Pick<PromptOptimizationConfig, "scorer">, env: Record<string, string | undefined> = process.env): { id: string; endpoint: LlmEndpoint | null } {
  const endpoint = cfg.scorer === "builtin" ? null : endpointFromEnv(env);
  if (cfg.scorer === "openai" && !endpoint) throw new Error('scorer "openai" needs OPENAI_BASE_URL (an OpenAI-compatible endpoint)');
  return endpoint ? { id: scorerId(endpoint), endpoint } : { id: BUILTIN_SCORER, endpoint: null };
}

/** Constraint first (fewest protected failures), then score, then text so ties never depend on order. */
export function rankPrompts(a: Scored, b: Scored): number {
  return a.protectedFailures - b.protectedFailures || b.score - a.score || (a.template < b.template ? -1 : a.template > b.template ? 1 : 0);
}

class PromptOptimizationSession implements FamilySession {
  readonly family = "prompt-optimization" as const;
  readonly #init: FamilyStart<PromptOptimizationConfig, PromptTemplate>;
  readonly #validation: EnvTask[];
  readonly #responder: Responder;
  #s: ApoState;
  readonly #rng: Rng;

  constructor(init: FamilyStart<PromptOptimizationConfig, PromptTemplate>, state?: ApoState) {
    this.#init = init;
    const cfg = init.config;
    const { id, endpoint } = resolveScorer(cfg);
    if (cfg.resolvedScorer && cfg.resolvedScorer !== id) throw new Error(`this run was scored by ${cfg.resolvedScorer}; now ${id} is configured — resume it with the same scorer`);
    if (!endpoint && init.environment.id !== "support-desk") throw new Error(`the built-in responder only knows the support desk; set OPENAI_BASE_URL to optimise prompts for ${init.environment.id}`);
    if (!init.environment.describe) throw new Error(`${init.environment.id} gives no text view of its state; prompt optimization needs Environment.describe`);
    this.#responder = endpoint ? openaiResponder(endpoint, { concurrency: cfg.concurrency, timeoutMs: cfg.requestTimeoutMs, maxRetries: cfg.maxRetries }) : builtinResponder;
    this.#validation = this.#validationTasks();
    this.#s = state ? structuredClone(state) : { beam: [], updates: 0, rng: Rng.from(`${init.seed}/apo`).state(), evaluated: 0, parseFailures: 0, duplicatesDropped: 0, history: [] };
    this.#rng = Rng.fromState(this.#s.rng);
  }

  /** The run's own validation split when it has one (the worker's `validation/train/…`), else tasks of its own under `validation/apo/…`. */
  #validationTasks(): EnvTask[] {
    const { environment: env, validation, distribution, seed, config } = this.#init;
    if (validation) {
      const dist = validation.distribution.digest === distribution.digest ? distribution : resolveDistribution(env.distributions, validation.distribution.digest);
      if (!dist) throw new Error(`validation split ${validation.label} uses a distribution this environment does not know (${validation.distribution.digest})`);
      return validation.seeds.map((s) => env.sampleTask(dist, s));
    }
    return Array.from({ length: config.validationTasks }, (_, i) => env.sampleTask(distribution, `validation/apo/${seed}/${i}`));
  }

  get scorer() {
    return this.#responder.id;
  }
  get updates() {
    return this.#s.updates;
  }
  get finished() {
    return false;
  }

  async #run(template: string, tasks: readonly EnvTask[], label: string): Promise<TextEpisode[] | Error> {
    try {
      return await Promise.all(tasks.map((t, i) => textEpisode(this.#init.environment, this.#responder, template, t, streamSeed(this.#init.seed, label, i))));
    } catch (e) {
      // A template naming a placeholder we do not fill cannot be used; anything else (network) is the run's failure.
      if (/prompt template uses/.test((e as Error).message)) return e as Error;
      throw e;
    }
  }

  /** The prompt's figures on the validation split; null for a template that cannot be rendered. */
  async #score(template: string): Promise<Scored | null> {
    this.#s.evaluated++;
    const eps = await this.#run(template, this.#validation, "apo-validation");
    const protectedCases = this.#validation.filter((t) => t.protectedFamily).length;
    if (eps instanceof Error) return null;
    const parseFailures = eps.filter((e) => e.parseFailure !== null).length;
    this.#s.parseFailures += parseFailures;
    return {
      template,
      score: eps.reduce((a, e) => a + e.reward, 0) / eps.length,
      successRate: eps.filter((e) => e.success).length / eps.length,
      protectedCases,
      protectedFailures: eps.filter((e) => e.protectedPassed === false).length,
      parseFailures,
    };
  }

  /** `n` distinct rows of `xs` at random (all of them when there are fewer). */
  #sampleBatch<T>(xs: readonly T[], n: number): T[] {
    const pool = [...xs];
    const out: T[] = [];
    while (out.length < n && pool.length) out.push(pool.splice(this.#rng.int(pool.length), 1)[0]!);
    return out;
  }

  async step() {
    const cfg = this.#init.config;
    const s = this.#s;
    if (s.beam.length === 0) {
      const parent = await this.#score(this.#init.parent.template);
      if (!parent) throw new Error("the parent prompt cannot be rendered: it uses a placeholder other than {ticket} and {actions}");
      s.beam = [parent];
    }
    const round = s.updates;
    const known = new Set(s.beam.map((b) => b.template));
    const fresh: string[] = [];
    let drawn = 0;
    let duplicates = 0;
    for (const [b, parent] of s.beam.entries()) {
      const tasks = Array.from({ length: cfg.rolloutsPerPrompt }, (_, i) => this.#init.environment.sampleTask(this.#init.distribution, streamSeed(this.#init.seed, "apo-train", round, b, i)));
      const rollouts = await this.#run(parent.template, tasks, `apo-train/${round}/${b}`);
      if (rollouts instanceof Error) continue;
      s.parseFailures += rollouts.filter((r) => r.parseFailure !== null).length;
      // Sample edits until branchFactor distinct new ones (or the draw budget is spent); drop duplicates after.
      const edits: string[] = [];
      for (let k = 0; k < cfg.branchFactor * cfg.sampleFactor && edits.length < cfg.branchFactor; k++) {
        const batch: RolloutSummary[] = this.#sampleBatch(rollouts, cfg.gradientBatch);
        const seed = this.#rng.int(2 ** 31);
        const critique = await this.#responder.critique({ prompt: parent.template, rollouts: batch, temperature: cfg.temperature, seed });
        let rewritten = (await this.#responder.rewrite({ prompt: parent.template, critique, temperature: cfg.temperature, seed })).trim();
        drawn++;
        if (rewritten && !rewritten.includes("{ticket}")) rewritten = `${rewritten}\n{ticket}`;
        if (!rewritten || known.has(rewritten)) {
          duplicates++;
          continue;
        }
        known.add(rewritten);
        edits.push(rewritten);
      }
      fresh.push(...edits);
    }
    const children: Scored[] = [];
    for (const t of fresh) {
      const scored = await this.#score(t);
      if (scored) children.push(scored);
    }
    s.duplicatesDropped += duplicates;
    s.beam = [...s.beam, ...children].sort(rankPrompts).slice(0, cfg.beamWidth);
    s.updates++;
    const best = this.#best();
    s.history.push({ round: s.updates, best: best?.score ?? s.beam[0]!.score, feasible: best !== null });
    return {
      update: s.updates,
      finished: false,
      figures: {
        bestScore: best?.score ?? Number.NaN,
        bestSuccessRate: best?.successRate ?? 0,
        feasiblePrompts: s.beam.filter((b) => b.protectedFailures === 0).length,
        candidates: children.length,
        editsDrawn: drawn,
        duplicatesDropped: duplicates,
        parseFailures: s.parseFailures,
        promptsEvaluated: s.evaluated,
      },
      ...(best ? {} : { note: "no prompt in the beam passes every protected case of the validation split yet; the candidate stays the parent" }),
    };
  }

  /** The best prompt that passes every protected case; null when none does. */
  #best(): Scored | null {
    return this.#s.beam.find((b) => b.protectedFailures === 0) ?? null;
  }

  candidate() {
    return promptResource(promptTemplate(this.#best()?.template ?? this.#init.parent.template));
  }
  report() {
    const s = this.#s;
    return {
      scorer: this.#responder.id,
      selected: this.#best()?.template ?? null,
      beam: s.beam.map((b) => ({ score: b.score, successRate: b.successRate, protectedFailures: b.protectedFailures, protectedCases: b.protectedCases, parseFailures: b.parseFailures, template: b.template })),
      history: s.history,
      promptsEvaluated: s.evaluated,
      parseFailures: s.parseFailures,
      duplicatesDropped: s.duplicatesDropped,
      validationTasks: this.#validation.length,
    };
  }
  state(): ApoState {
    return { ...structuredClone(this.#s), rng: this.#rng.state() };
  }
}

export const promptOptimizationFamily: FamilyDefinition<typeof promptOptimizationConfigSchema, PromptTemplate> = {
  name: "prompt-optimization",
  description: "APO: a beam of prompts edited by critiques of random rollout batches (sampled, deduplicated); protected cases are a hard constraint. An OpenAI-compatible model when configured, else the built-in responder.",
  resourceKind: "prompt-template",
  parentKind: PROMPT_RESOURCE_TYPE,
  configSchema: promptOptimizationConfigSchema,
  reads: [],
  spanFamilies: ["agent.step", "reward"],
  parentOf(resource) {
    const t = resource as PromptTemplate;
    if (!t || t.resource_type !== PROMPT_RESOURCE_TYPE || typeof t.template !== "string") throw new Error(`prompt-optimization's parent must be a ${PROMPT_RESOURCE_TYPE} resource`);
    return promptTemplate(t.template);
  },
  start: (init, state) => new PromptOptimizationSession(init, state as ApoState | undefined),
};
