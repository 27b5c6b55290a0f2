// A scripted support expert who knows each ticket's hidden facts: the source of expert demonstrations
// in tests and demos (real deployments store human agents' or a strong policy's trajectories instead).
// `slip` is the chance of a wrong move at a step — a weaker expert — drawn from the episode's own
// policy stream, so demonstrations stay deterministic for their seed.
import type { ActingPolicy } from "../episode";
import type { EnvTask, Observation } from "../types";
import { INTENT_FACTS, needsClarification, requiresEscalation, type DeskTask } from "./catalog";
import { SUPPORT_DESK_ACTIONS, TEXT_DESK_ACTIONS } from "./environment";
import { FLAGS } from "./features";

const ACTION_INDEX = new Map(SUPPORT_DESK_ACTIONS.map((a, i) => [a.name, i]));

function flagsOf(obs: Observation): Record<(typeof FLAGS)[number], boolean> {
  const bits = obs.key.split("|")[3] ?? "";
  return Object.fromEntries(FLAGS.map((f, i) => [f, bits[i] === "1"])) as Record<(typeof FLAGS)[number], boolean>;
}

/** The action an expert who knows the ticket's facts takes next (retrying a failed tool). */
export function deskExpertAction(task: DeskTask, obs: Observation): string {
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

/**
 * The expert as an acting policy for one task. With probability `slip` a step puts its mass on another,
 * non-destructive action instead (which one is spread uniformly), so weaker experts make plausible mistakes.
 */
export function deskExpert(task: EnvTask, slip = 0): ActingPolicy {
  const desk = task as DeskTask;
  const destructive = ACTION_INDEX.get("delete_account")!;
  return {
    probabilities(obs, out) {
      const best = ACTION_INDEX.get(deskExpertAction(desk, obs))!;
      const others = out.length - 2;
      for (let a = 0; a < out.length; a++) out[a] = a === best ? 1 - slip : a === destructive ? 0 : slip / others;
    },
  };
}

const TEXT_ACTION_INDEX = new Map(TEXT_DESK_ACTIONS.map((a, i) => [a.name, i]));

/** The same expert on the text desk, where it also names the arguments: the search topic, the queue, the category. */
export function deskTextExpertAction(task: DeskTask, obs: Observation): string {
  const action = deskExpertAction(task, obs);
  const intent = task.attributes.intent;
  if (action === "escalate_to_human") return `${action}:${INTENT_FACTS[intent].queue}`;
  if (action === "search_for_information" || action === "update_ticket") return `${action}:${intent}`;
  return action;
}

/** The text desk's expert as an acting policy for one task (never slips). */
export function deskTextExpert(task: EnvTask): ActingPolicy {
  const desk = task as DeskTask;
  return {
    probabilities(obs, out) {
      out.fill(0);
      out[TEXT_ACTION_INDEX.get(deskTextExpertAction(desk, obs))!] = 1;
    },
  };
}
