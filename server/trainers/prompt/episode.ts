// One episode with a responder choosing every action from the ticket's text under a prompt. Async (a
// model call per step), so it has its own small driver over reset/describe/step. A reply that names no
// action ends the episode as failed and is reported (`parseFailure`) — never mapped to some action.
import { Rng, streamSeed } from "@/server/environments/prng";
import { DEFAULT_REWARD_WEIGHTS, REWARD_COMPONENTS, weightedReward, zeroComponents, type EnvTask } from "@/server/environments/types";
import type { AnyEnvironment } from "../family";
import { actionIn, type Responder, type RolloutSummary } from "./responder";
import { renderTemplate } from "./template";

export type TextEpisode = RolloutSummary & { protectedFamily: string | null };

export async function textEpisode(env: AnyEnvironment, responder: Responder, template: string, task: EnvTask, seed: string): Promise<TextEpisode> {
  const describe = env.describe;
  if (!describe) throw new Error(`${env.id} gives no text view of its state (Environment.describe); prompt optimization needs one`);
  const names = env.actions.map((a) => a.name);
  const { state } = env.reset(task, { target: `apo/${seed}`, rng: Rng.from(streamSeed(seed, "env")), options: { toolFailureRate: 0, timeoutShare: 0 } });
  const totals = zeroComponents();
  const actions: string[] = [];
  let first = "";
  let parseFailure: string | null = null;
  for (let i = 0; i < env.maxSteps; i++) {
    const ticket = describe(state);
    if (i === 0) first = ticket;
    const system = renderTemplate(template, { ticket, actions: names.join(", ") });
    const reply = await responder.act({ template, system, ticket, actions: names });
    const action = actionIn(reply, names);
    if (!action) {
      parseFailure = reply;
      break;
    }
    actions.push(action);
    const r = env.step(state, names.indexOf(action));
    for (const k of REWARD_COMPONENTS) totals[k] += r.components[k];
    if (r.done || r.aborted) break;
  }
  const verdict = env.judgeProtected(task, state);
  const reached = parseFailure === null && env.outcomeReached(state);
  return {
    ticket: first,
    actions,
    reward: weightedReward(totals, DEFAULT_REWARD_WEIGHTS),
    success: reached && verdict?.pass !== false,
    protectedPassed: verdict ? verdict.pass && parseFailure === null : null,
    protectedFamily: task.protectedFamily,
    parseFailure,
  };
}
