// Prompt optimization by beam search over edited prompts, in the spirit of Agent Lightning's APO
// (agentlightning/algorithm/apo): each round, every prompt in the beam gets `branchFactor` edited
// children; all are scored on a fixed validation set of tasks; the best `beamWidth` (parents included)
// form the next beam. With an OpenAI-compatible endpoint the model edits (critique → rewrite) and acts;
// without one the deterministic built-in rule-follower does both. The resolved scorer is part of the
// run's config, so the receipt records which one judged the prompts. One update = one beam round.
import { z } from "zod";
import { simulateEpisode } from "@/server/environments/episode";
import { Rng, streamSeed, type RngState } from "@/server/environments/prng";
import { DEFAULT_REWARD_WEIGHTS, weightedReward, type EnvTask } from "@/server/environments/types";
import type { AnyEnvironment, FamilyDefinition, FamilySession, FamilyStart } from "../family";
import { BUILTIN_SCORER, builtinEdit, ruleFollower } from "./builtin";
import { endpointFromEnv, llmEdit, llmEpisode, scorerId, type LlmEndpoint } from "./openai";
import { PROMPT_RESOURCE_TYPE, promptResource, promptTemplate, type PromptTemplate } from "./template";

export const promptOptimizationConfigSchema = z
  .object({
    beamWidth: z.number().int("beamWidth must be an integer").min(1, "beamWidth must be ≥ 1").max(32, "beamWidth must be ≤ 32").default(4),
    branchFactor: z.number().int("branchFactor must be an integer").min(1, "branchFactor must be ≥ 1").max(32, "branchFactor must be ≤ 32").default(4),
    /** Validation tasks every prompt is scored on (the same ones every round, so scores compare). */
    validationTasks: z.number().int("validationTasks must be an integer").min(1, "validationTasks must be ≥ 1").max(10_000).default(60),
    /** Failed episodes shown to the model's critique (language-model path). */
    gradientExamples: z.number().int("gradientExamples must be an integer").min(0).max(50).default(4),
    /** "auto": the language model when OPENAI_BASE_URL is set, else built-in. */
    scorer: z.enum(["auto", "builtin", "openai"], { error: 'scorer must be "auto", "builtin" or "openai"' }).default("auto"),
    /** Filled in when a run starts (the scorer actually used); a resumed run must find the same one. */
    resolvedScorer: z.string().min(1).nullable().default(null),
  })
  .strict();
export type PromptOptimizationConfig = z.output<typeof promptOptimizationConfigSchema>;

type Scored = { template: string; score: number; successRate: number; failures: string[] };
type ApoState = { beam: Scored[]; updates: number; rng: RngState; evaluated: number; history: { round: number; best: number }[] };

export function resolveScorer(cfg: Pick<PromptOptimizationConfig, "scorer">, env: Record<string, string | undefined> = process.env): { id: string; endpoint: LlmEndpoint | null } {
  const endpoint = cfg.scorer === "builtin" ? null : endpointFromEnv(env);
  if (cfg.scorer === "openai" && !endpoint) throw new Error('scorer "openai" needs OPENAI_BASE_URL (an OpenAI-compatible endpoint)');
  return endpoint ? { id: scorerId(endpoint), endpoint } : { id: BUILTIN_SCORER, endpoint: null };
}

class PromptOptimizationSession implements FamilySession {
  readonly family = "prompt-optimization" as const;
  readonly #init: FamilyStart<PromptOptimizationConfig, PromptTemplate>;
  readonly #tasks: EnvTask[];
  readonly #endpoint: LlmEndpoint | null;
  readonly #scorer: string;
  #s: ApoState;
  readonly #rng: Rng;

  constructor(init: FamilyStart<PromptOptimizationConfig, PromptTemplate>, state?: ApoState) {
    this.#init = init;
    const { id, endpoint } = resolveScorer(init.config);
    if (init.config.resolvedScorer && init.config.resolvedScorer !== id) throw new Error(`this run was scored by ${init.config.resolvedScorer}; now ${id} is configured — resume it with the same scorer`);
    if (!endpoint && init.environment.id !== "support-desk") throw new Error(`the built-in prompt scorer only knows the support desk; set OPENAI_BASE_URL to optimise prompts for ${init.environment.id}`);
    this.#endpoint = endpoint;
    this.#scorer = id;
    this.#tasks = Array.from({ length: init.config.validationTasks }, (_, i) => init.environment.sampleTask(init.distribution, streamSeed(init.seed, "apo-validation", i)));
    this.#s = state ? structuredClone(state) : { beam: [], updates: 0, rng: Rng.from(`${init.seed}/apo`).state(), evaluated: 0, history: [] };
    this.#rng = Rng.fromState(this.#s.rng);
  }

  get scorer() {
    return this.#scorer;
  }
  get updates() {
    return this.#s.updates;
  }
  get finished() {
    return false;
  }

  async #score(template: string): Promise<Scored> {
    const env: AnyEnvironment = this.#init.environment;
    let total = 0;
    let successes = 0;
    const failures: string[] = [];
    this.#s.evaluated++;
    for (const [i, task] of this.#tasks.entries()) {
      const seed = streamSeed(this.#init.seed, "apo-episode", i);
      let reward: number;
      let ok: boolean;
      let actions: string[];
      if (this.#endpoint) {
        try {
          const ep = await llmEpisode(env, this.#endpoint, template, task, seed);
          [reward, ok, actions] = [ep.reward, ep.outcomeReached, ep.actions];
        } catch (e) {
          if (/prompt template uses/.test((e as Error).message)) return { template, score: -Infinity, successRate: 0, failures: [(e as Error).message] };
          throw e;
        }
      } else {
        const ep = simulateEpisode(env, ruleFollower(template), task, { episodeKey: `apo/${i}`, seed, options: { toolFailureRate: 0, timeoutShare: 0 } });
        [reward, ok, actions] = [weightedReward(ep.totals, DEFAULT_REWARD_WEIGHTS), ep.outcomeReached && ep.protected?.pass !== false, ep.steps.map((s) => s.action)];
      }
      total += reward;
      if (ok) successes++;
      else if (failures.length < this.#init.config.gradientExamples) failures.push(`ticket ${JSON.stringify(task.attributes)}: actions ${actions.join(" → ")}; reward ${reward.toFixed(2)}`);
    }
    return { template, score: total / this.#tasks.length, successRate: successes / this.#tasks.length, failures };
  }

  async step() {
    const cfg = this.#init.config;
    const s = this.#s;
    if (s.beam.length === 0) s.beam = [await this.#score(this.#init.parent.template)];
    const children: Scored[] = [];
    const seen = new Set(s.beam.map((b) => b.template));
    for (const parent of s.beam) {
      for (let b = 0; b < cfg.branchFactor; b++) {
        const edited = this.#endpoint ? await llmEdit(this.#endpoint, parent.template, parent.failures) : builtinEdit(parent.template, this.#rng);
        if (seen.has(edited)) continue;
        seen.add(edited);
        children.push(await this.#score(edited));
      }
    }
    // Stable order: score, then the text, so ties never depend on evaluation order.
    s.beam = [...s.beam, ...children].sort((a, b) => b.score - a.score || (a.template < b.template ? -1 : 1)).slice(0, cfg.beamWidth);
    s.updates++;
    s.history.push({ round: s.updates, best: s.beam[0]!.score });
    return { update: s.updates, finished: false, figures: { bestScore: s.beam[0]!.score, bestSuccessRate: s.beam[0]!.successRate, candidates: children.length, promptsEvaluated: s.evaluated } };
  }

  candidate() {
    const best = this.#s.beam[0]?.template ?? this.#init.parent.template;
    return promptResource(promptTemplate(best));
  }
  report() {
    return { scorer: this.#scorer, beam: this.#s.beam.map((b) => ({ score: b.score, successRate: b.successRate, template: b.template })), history: this.#s.history, promptsEvaluated: this.#s.evaluated };
  }
  state(): ApoState {
    return { ...structuredClone(this.#s), rng: this.#rng.state() };
  }
}

export const promptOptimizationFamily: FamilyDefinition<typeof promptOptimizationConfigSchema, PromptTemplate> = {
  name: "prompt-optimization",
  description: "Beam search over edited prompt templates (APO); an OpenAI-compatible model when configured, else the built-in scorer.",
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
