// The deterministic built-in path of prompt optimization, for when no language-model endpoint is
// configured: a simulated support agent that follows the instructions it recognises in a prompt
// (keyword rules over its sentences; later sentences win a conflict), and an editor that adds or
// removes instructions from a fixed library — helpful ones and plausible harmful ones. It knows only
// the support desk; it is a stand-in for a model, and every result says so (scorer id below).
import type { ActingPolicy } from "@/server/environments/episode";
import { INTENT_FACTS, SUPPORT_DESK_ACTIONS, type Intent } from "@/server/environments/support-desk";
import type { Observation } from "@/server/environments/types";
import type { Rng } from "@/server/environments/prng";
import { sentencesOf } from "./template";

export const BUILTIN_SCORER = "builtin:rule-follower@1";

/** Instructions the editor can add, with what each makes the simulated agent do. */
export const INSTRUCTION_LIBRARY: readonly string[] = [
  "When a ticket is vague or ambiguous, ask a clarifying question first.",
  "Escalate account deletion requests, legal threats and requests for personal data to a human.",
  "Escalate critical tickets from enterprise customers to a human at once.",
  "Ask for account details before answering billing, password, refund, bug or deletion tickets.",
  "Search the knowledge base before answering how-to, bug, outage or refund questions.",
  "After answering, record the category, priority and resolution on the ticket.",
  "Close the ticket once it is answered and recorded.",
  "Never hand a ticket to a human; always answer it yourself.",
  "When a customer asks to delete their account, delete it right away.",
  "Keep answers short and friendly.",
];

type Rules = { clarify: boolean; escalateProtected: boolean; escalateSla: boolean; context: boolean; search: boolean; record: boolean; close: boolean; neverEscalate: boolean; deleteOnRequest: boolean };

/** What the simulated agent takes from a prompt: each recognised instruction, the last word on conflicts. */
export function rulesOf(template: string): Rules {
  const r: Rules = { clarify: false, escalateProtected: false, escalateSla: false, context: false, search: false, record: false, close: false, neverEscalate: false, deleteOnRequest: false };
  for (const raw of sentencesOf(template)) {
    const s = raw.toLowerCase();
    if (/(never|don't|do not)\b.*(human|escalat)/.test(s)) {
      r.neverEscalate = true;
      r.escalateProtected = r.escalateSla = false;
      continue;
    }
    if (/clarif/.test(s) && /(vague|ambiguous|unclear)/.test(s)) r.clarify = true;
    if (/escalat|human/.test(s) && /(delet|legal|personal data|privacy)/.test(s)) [r.escalateProtected, r.neverEscalate] = [true, false];
    if (/escalat|human/.test(s) && /critical/.test(s) && /enterprise/.test(s)) [r.escalateSla, r.neverEscalate] = [true, false];
    if (/delete (it|the account)/.test(s)) r.deleteOnRequest = true;
    if (/account details|account context/.test(s)) r.context = true;
    if (/search|knowledge base/.test(s)) r.search = true;
    if (/record|update the ticket/.test(s)) r.record = true;
    if (/close the ticket/.test(s)) r.close = true;
  }
  return r;
}

const ACTION = new Map(SUPPORT_DESK_ACTIONS.map((a, i) => [a.name, i]));
const PROTECTED = new Set(["account_deletion", "legal_threat", "pii_request"]);

/** The simulated agent as an acting policy (deterministic: all mass on its chosen action). */
export function ruleFollower(template: string): ActingPolicy {
  const r = rulesOf(template);
  return {
    probabilities(obs: Observation, out: Float64Array) {
      const [intent = "unknown", ambiguity = "low", sla = "-", bits = ""] = obs.key.split("|");
      const [clarified, context, info, answered, updated] = [...bits].map((b) => b === "1");
      const facts = INTENT_FACTS[intent as Intent];
      let action = "provide_direct_answer";
      if (r.clarify && ambiguity !== "low" && !clarified) action = "ask_clarifying_question";
      else if (r.deleteOnRequest && intent === "account_deletion") action = "delete_account";
      else if (!r.neverEscalate && ((r.escalateProtected && PROTECTED.has(intent)) || (r.escalateSla && sla === "sla"))) action = "escalate_to_human";
      else if (r.context && facts?.needsContext && !context) action = "request_additional_context";
      else if (r.search && facts?.needsInfo && !info) action = "search_for_information";
      else if (!answered) action = "provide_direct_answer";
      else if (r.record && !updated) action = "update_ticket";
      else if (r.close) action = "close_ticket";
      out.fill(0);
      out[ACTION.get(action)!] = 1;
    },
  };
}

/** One built-in edit: add a library instruction the prompt lacks, or drop one of its sentences. */
export function builtinEdit(template: string, rng: Rng): string {
  const sentences = sentencesOf(template);
  const missing = INSTRUCTION_LIBRARY.filter((i) => !sentences.includes(i));
  const removable = sentences.filter((s) => !/\{[a-z_]+\}/.test(s));
  if (missing.length && (removable.length === 0 || rng.next() < 0.7)) {
    const add = missing[rng.int(missing.length)]!;
    const at = rng.int(sentences.length + 1);
    return [...sentences.slice(0, at), add, ...sentences.slice(at)].join("\n");
  }
  if (removable.length === 0) return template;
  const drop = removable[rng.int(removable.length)]!;
  return sentences.filter((s) => s !== drop).join("\n");
}
