// One episode with a responder choosing every action from the ticket's text under a prompt. Async (a
// model call per step), so it has its own driver over reset/describe/step, mirroring simulateEpisode:
// the same episode shape (so a runner exports the same spans and writes the same canary effects as for
// a policy) and the same environment stream of the seed. A reply that names no action ends the episode
// without its outcome and is reported (`parseFailure`) — never mapped to some action.
import type { Episode, EpisodeRun, EpisodeStep } from "@/server/environments/episode";
import { resolveOptions } from "@/server/environments/episode";
import { Rng, streamSeed } from "@/server/environments/prng";
import { DEFAULT_REWARD_WEIGHTS, REWARD_COMPONENTS, weightedReward, zeroComponents, type EnvTask } from "@/server/environments/types";
import type { AnyEnvironment } from "../family";
import { actionIn, type Responder, type RolloutSummary } from "./responder";
import { renderTemplate } from "./template";

export type PromptEpisode = { episode: Episode; /** the first ticket text the responder saw */ ticket: string; parseFailure: string | null };

/** The full episode of a prompt under a responder (what a runner executes for a prompt resource). */
export async function promptEpisode(env: AnyEnvironment, responder: Responder, template: string, task: EnvTask, run: EpisodeRun): Promise<PromptEpisode> {
  const describe = env.describe;
  if (!describe) throw new Error(`${env.id} gives no text view of its state (Environment.describe); a prompt cannot act on it`);
  const names = env.actions.map((a) => a.name);
  const target = env.targetFor(task, run.episodeKey);
  const opened = env.reset(task, { target, rng: Rng.from(streamSeed(run.seed, "env")), options: resolveOptions(run.options) });
  const state = opened.state;
  const effects = [...opened.effects];
  const steps: EpisodeStep[] = [];
  const totals = zeroComponents();
  let aborted: Episode["aborted"] = null;
  let first = "";
  let parseFailure: string | null = null;
  for (let index = 0; index < env.maxSteps; index++) {
    const ticket = describe(state);
    if (index === 0) first = ticket;
    const obs = env.observe(state);
    const system = renderTemplate(template, { ticket, actions: names.join(", ") });
    const reply = await responder.act({ template, system, ticket, actions: names });
    const action = actionIn(reply, names);
    if (!action) {
      parseFailure = reply;
      break;
    }
    const actionIndex = names.indexOf(action);
    const result = env.step(state, actionIndex);
    for (const k of REWARD_COMPONENTS) totals[k] += result.components[k];
    effects.push(...result.effects);
    // The responder chose deterministically: the behaviour probability of its action is 1.
    steps.push({ index, features: Array.from(obs.features), key: obs.key, action, actionIndex, logProb: 0, components: result.components, toolCall: result.toolCall, durationMs: result.durationMs });
    if (result.aborted) {
      aborted = { step: index, reason: result.aborted };
      break;
    }
    if (result.done) break;
  }
  const episode: Episode = {
    environment: { id: env.id, version: env.version, specDigest: env.specDigest },
    task,
    episodeKey: run.episodeKey,
    seed: run.seed,
    target,
    steps,
    effects,
    aborted,
    outcomeReached: !aborted && parseFailure === null && env.outcomeReached(state),
    protected: env.judgeProtected(task, state),
    totals,
  };
  return { episode, ticket: first, parseFailure };
}

export type TextEpisode = RolloutSummary & { protectedFamily: string | null };

/** An episode as prompt optimization sees it (no injected tool failures): text, actions, reward, verdicts. */
export async function textEpisode(env: AnyEnvironment, responder: Responder, template: string, task: EnvTask, seed: string): Promise<TextEpisode> {
  const { episode, ticket, parseFailure } = await promptEpisode(env, responder, template, task, { episodeKey: `apo/${seed}`, seed, options: { toolFailureRate: 0, timeoutShare: 0 } });
  const verdict = episode.protected;
  return {
    ticket,
    actions: episode.steps.map((s) => s.action),
    reward: weightedReward(episode.totals, DEFAULT_REWARD_WEIGHTS),
    success: episode.outcomeReached && verdict?.pass !== false,
    protectedPassed: verdict ? verdict.pass && parseFailure === null : null,
    protectedFamily: task.protectedFamily,
    parseFailure,
  };
}
