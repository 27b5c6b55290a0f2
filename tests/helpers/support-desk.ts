// Scripted policies for support-desk tests: an oracle that knows the ticket's hidden facts (so it shows
// the environment is solvable and what "correct" means), and fixed-action policies.
import type { ActingPolicy } from "@/server/environments/episode";
import { INTENT_FACTS, SUPPORT_DESK_ACTIONS, needsClarification, requiresEscalation, type DeskTask } from "@/server/environments/support-desk";
import type { EnvTask, Observation } from "@/server/environments/types";

export const ACTION_INDEX = Object.fromEntries(SUPPORT_DESK_ACTIONS.map((a, i) => [a.name, i])) as Record<string, number>;

function onehot(out: Float64Array, action: string) {
  out.fill(0);
  out[ACTION_INDEX[action]!] = 1;
}

/** Reads the progress flags back out of a support-desk state key. */
export function flagsOf(obs: Observation) {
  const bits = obs.key.split("|")[3]!;
  return { clarified: bits[0] === "1", context: bits[1] === "1", info: bits[2] === "1", answered: bits[3] === "1", updated: bits[4] === "1", toolFailed: bits[5] === "1" };
}

/** The action a support agent who knows the ticket's hidden facts takes next (retrying failed tools). */
export function oracleAction(task: DeskTask, obs: Observation): string {
  const f = flagsOf(obs);
  const facts = INTENT_FACTS[task.attributes.intent];
  if (needsClarification(task) && !f.clarified) return "ask_clarifying_question";
  if (requiresEscalation(task)) return "escalate_to_human";
  if (facts.needsContext && !f.context) return "request_additional_context";
  if (facts.needsInfo && !f.info) return "search_for_information";
  if (!f.answered) return "provide_direct_answer";
  if (!f.updated) return "update_ticket";
  return "close_ticket";
}

export function oraclePolicy(task: EnvTask): ActingPolicy {
  return { probabilities: (obs, out) => onehot(out, oracleAction(task as DeskTask, obs)) };
}

/** Follows `script` in order, then repeats its last action. */
export function scriptedPolicy(script: string[]): ActingPolicy {
  let i = 0;
  return { probabilities: (_obs, out) => onehot(out, script[Math.min(i++, script.length - 1)]!) };
}

export const uniformPolicy: ActingPolicy = { probabilities: (_obs, out) => out.fill(1 / out.length) };
