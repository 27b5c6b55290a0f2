// Scripted policies for support-desk tests: an oracle that knows the ticket's hidden facts (so it shows
// the environment is solvable and what "correct" means), and fixed-action policies.
import type { ActingPolicy } from "@/server/environments/episode";
import { SUPPORT_DESK_ACTIONS, type DeskTask } from "@/server/environments/support-desk";
import { deskExpertAction } from "@/server/environments/support-desk/expert";
import type { EnvTask, Observation } from "@/server/environments/types";

export const ACTION_INDEX = Object.fromEntries(SUPPORT_DESK_ACTIONS.map((a, i) => [a.name, i])) as Record<string, number>;

function onehot(out: Float64Array, action: string) {
  out.fill(0);
  out[ACTION_INDEX[action]!] = 1;
}

/** The action a support agent who knows the ticket's hidden facts takes next (the server's scripted expert). */
export const oracleAction = (task: DeskTask, obs: Observation): string => deskExpertAction(task, obs);

export function oraclePolicy(task: EnvTask): ActingPolicy {
  return { probabilities: (obs, out) => onehot(out, oracleAction(task as DeskTask, obs)) };
}

/** Follows `script` in order, then repeats its last action. */
export function scriptedPolicy(script: string[]): ActingPolicy {
  let i = 0;
  return { probabilities: (_obs, out) => onehot(out, script[Math.min(i++, script.length - 1)]!) };
}

export const uniformPolicy: ActingPolicy = { probabilities: (_obs, out) => out.fill(1 / out.length) };
