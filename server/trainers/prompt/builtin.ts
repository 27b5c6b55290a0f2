// The deterministic built-in responder: a stand-in for a language model when no endpoint is
// configured, answering the same three requests a model gets (act on a ticket's text, critique a
// prompt from rollouts, rewrite it). As an agent it reads the ticket's *text* with its own small
// lexicon and follows the prompt's instructions it understands ("When a ticket is about X, do Y.",
// "Never do Y."). As an editor it proposes one instruction per critique, built from a failed
// rollout's topic and a sampled action — a grammar of conditions × actions, most of them wrong, so the
// search has to find what works (the library does not hold the answers). Support desk only.
import type { Intent } from "@/server/environments/support-desk";
import { Rng } from "@/server/environments/prng";
import { sentencesOf } from "./template";
import type { ActRequest, EditRequest, Responder, RolloutSummary } from "./responder";

export const BUILTIN_SCORER = "builtin:rule-follower@2";

/** How the responder recognises a topic, in a ticket and in an instruction. Protected topics first. */
const TOPIC_WORDS: readonly (readonly [Intent, RegExp])[] = [
  ["account_deletion", /\bdelet|account closed|remove my account/],
  ["legal_threat", /\blawyer|\blegal\b|\bsue\b/],
  ["pii_request", /personal (data|information)|\bgdpr\b/],
  ["refund_request", /\brefund|money back/],
  ["billing_question", /\bbill|\binvoice|\bcharge/],
  ["password_reset", /\bpassword|\blog ?-?in\b|locked out/],
  ["outage_report", /\boutage|\bis down\b|been down|service is down/],
  ["bug_report", /\bbug|\bcrash|\berror|\bfreez/],
  ["feature_request", /\bfeature|\bsuggestion|dark mode|would be great/],
  ["how_to", /\bhow-to\b|\bhow do i\b|where is the setting|walk me through/],
];
/** What the editor calls each topic in an instruction (each matches its own TOPIC_WORDS entry). */
const TOPIC_PHRASE: Record<Intent, string> = {
  how_to: "how-to questions",
  billing_question: "billing or invoice questions",
  password_reset: "password problems",
  bug_report: "bug reports",
  feature_request: "feature suggestions",
  outage_report: "outage reports",
  refund_request: "refund requests",
  account_deletion: "account deletion requests",
  legal_threat: "legal threats",
  pii_request: "requests for personal data",
};
type Condition = { kind: "always" } | { kind: "vague" } | { kind: "sla" } | { kind: "topic"; topic: Intent };
const CONDITION_PHRASE = { vague: "is vague or unclear", sla: "is critical and from an enterprise customer", always: "comes in" } as const;

/** Action phrases the editor writes and the agent recognises, in recognition order (most specific first). */
const ACTION_WORDS: readonly (readonly [string, RegExp, string])[] = [
  ["delete_account", /delete (it|the account|their account)/, "delete the account right away"],
  ["escalate_to_human", /escalate|to a human/, "hand it to a human"],
  ["ask_clarifying_question", /clarifying question/, "ask a clarifying question first"],
  ["request_additional_context", /account details/, "ask for the customer's account details"],
  ["search_for_information", /\bsearch\b|knowledge base/, "search the knowledge base"],
  ["update_ticket", /\brecord\b|update the ticket/, "record the category and priority on the ticket"],
  ["close_ticket", /close (the ticket|it)/, "close the ticket"],
];
const PHRASE = new Map(ACTION_WORDS.map(([a, , p]) => [a, p]));
const GATHER = new Set(["ask_clarifying_question", "request_additional_context", "search_for_information"]);
const TERMINAL = new Set(["escalate_to_human", "delete_account"]);

type Rule = { when: Condition; action: string; never: boolean };

function topicOf(text: string): Intent | null {
  const t = text.toLowerCase();
  for (const [intent, re] of TOPIC_WORDS) if (re.test(t)) return intent;
  return null;
}

function conditionOf(clause: string | null): Condition {
  if (clause === null) return { kind: "always" };
  const c = clause.toLowerCase();
  if (/vague|unclear|ambiguous/.test(c)) return { kind: "vague" };
  if (/critical/.test(c) && /enterprise/.test(c)) return { kind: "sla" };
  const topic = topicOf(c);
  return topic ? { kind: "topic", topic } : { kind: "always" };
}

/** The instructions the responder understands in a prompt, in order (later ones never override earlier). */
export function rulesOf(template: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of sentencesOf(template)) {
    const s = raw.toLowerCase();
    const conditional = /^(when|if|for)\b/.test(s) && s.includes(",");
    const clause = conditional ? s.slice(0, s.indexOf(",")) : null;
    const rest = conditional ? s.slice(s.indexOf(",") + 1) : s;
    const found = ACTION_WORDS.find(([, re]) => re.test(rest));
    if (!found) continue;
    rules.push({ when: conditionOf(clause), action: found[0], never: /\b(never|don't|do not)\b/.test(rest) });
  }
  return rules;
}

const rulesCache = new Map<string, Rule[]>();
function cachedRules(template: string): Rule[] {
  let r = rulesCache.get(template);
  if (!r) {
    if (rulesCache.size > 5_000) rulesCache.clear();
    rulesCache.set(template, (r = rulesOf(template)));
  }
  return r;
}

type Read = { topic: Intent | null; vague: boolean; sla: boolean; clarified: boolean; context: boolean; info: boolean; answered: boolean; updated: boolean };

/** What the responder understands of a ticket's text. */
export function readTicket(text: string): Read {
  const customer = text.split("\n").filter((l) => l.startsWith("Customer")).join(" ");
  const done = text.split("\n").find((l) => l.startsWith("Done so far:")) ?? "";
  const topic = topicOf(customer);
  const clarified = done.includes("clarifying question");
  return {
    topic,
    vague: !clarified && (topic === null || /not sure|missing something/i.test(customer)),
    sla: /critical/i.test(customer) && /enterprise plan/i.test(text),
    clarified,
    context: done.includes("account details"),
    info: done.includes("knowledge-base article"),
    answered: done.includes("answered the customer"),
    updated: done.includes("recorded category"),
  };
}

function holds(c: Condition, r: Read): boolean {
  if (c.kind === "always") return true;
  if (c.kind === "vague") return r.vague;
  if (c.kind === "sla") return r.sla;
  return r.topic === c.topic;
}

/** The built-in agent's next action for a ticket under a prompt. */
export function builtinAction(template: string, ticket: string): string {
  const r = readTicket(ticket);
  const rules = cachedRules(template).filter((x) => holds(x.when, r));
  const forbidden = new Set(rules.filter((x) => x.never).map((x) => x.action));
  const done: Record<string, boolean> = { ask_clarifying_question: r.clarified, request_additional_context: r.context, search_for_information: r.info, update_ticket: r.updated };
  for (const x of rules) {
    if (x.never || forbidden.has(x.action)) continue;
    if (TERMINAL.has(x.action)) return x.action;
    if (!r.answered && GATHER.has(x.action) && !done[x.action]) return x.action;
  }
  if (!r.answered) return "provide_direct_answer";
  for (const a of ["update_ticket", "close_ticket"]) {
    if (!forbidden.has(a) && !done[a] && rules.some((x) => !x.never && x.action === a)) return a;
  }
  return "provide_direct_answer";
}

/** Draws index i with probability ∝ exp(score_i / T); T = 0 is the argmax (first on ties). */
function sample(rng: Rng, scores: readonly number[], temperature: number): number {
  if (temperature <= 0) return scores.indexOf(Math.max(...scores));
  const max = Math.max(...scores);
  return rng.weighted(scores.map((s) => Math.exp((s - max) / temperature)));
}

function suggestion(rollout: RolloutSummary, rng: Rng, temperature: number): string {
  const r = readTicket(rollout.ticket);
  const conditions: Condition[] = [{ kind: "always" }];
  if (r.topic) conditions.push({ kind: "topic", topic: r.topic });
  if (r.vague) conditions.push({ kind: "vague" });
  if (r.sla) conditions.push({ kind: "sla" });
  // Prefer the most specific reading of the failure, flattened by the temperature.
  const when = conditions[sample(rng, conditions.map((_, i) => i), temperature)]!;
  const phrase = when.kind === "topic" ? `is about ${TOPIC_PHRASE[when.topic]}` : CONDITION_PHRASE[when.kind];
  const taken = new Set(rollout.actions);
  const untried = ACTION_WORDS.map(([a]) => a).filter((a) => !taken.has(a));
  // Mostly: do something the failed rollout never did; sometimes: forbid something it did.
  if (taken.size && (untried.length === 0 || rng.next() < 0.15)) {
    const did = [...taken].filter((a) => PHRASE.has(a));
    if (did.length) return `When a ticket ${phrase}, never ${PHRASE.get(did[rng.int(did.length)]!)}.`;
  }
  const action = untried[temperature <= 0 ? 0 : rng.int(untried.length)] ?? "close_ticket";
  return `When a ticket ${phrase}, ${PHRASE.get(action)}.`;
}

/** The built-in responder (synchronous underneath; seeded by each request's seed). */
export const builtinResponder: Responder = {
  id: BUILTIN_SCORER,
  async act(req: ActRequest) {
    return builtinAction(req.template, req.ticket);
  },
  async critique(req: EditRequest & { rollouts: readonly RolloutSummary[] }) {
    const rng = Rng.from(`builtin/critique/${req.seed}`);
    // Like the critic's instructions say: a broken protected rule first, then any failure.
    const broken = req.rollouts.filter((r) => r.protectedPassed === false);
    const failed = broken.length ? broken : req.rollouts.filter((r) => !r.success);
    if (failed.length === 0) return "The prompt handled every ticket shown. No change needed.";
    const worst = failed[sample(rng, failed.map((r) => -r.reward), Math.max(req.temperature, 1e-9))]!;
    return `On a ticket reading "${worst.ticket.split("\n").find((l) => l.startsWith("Customer:")) ?? ""}" the agent did ${worst.actions.join(" → ") || "nothing"} (reward ${worst.reward.toFixed(2)}). Suggested instruction: ${suggestion(worst, rng, req.temperature)}`;
  },
  async rewrite(req: EditRequest & { critique: string }) {
    const rng = Rng.from(`builtin/rewrite/${req.seed}`);
    const sentences = sentencesOf(req.prompt);
    const removable = sentences.filter((s) => !/\{[a-z_]+\}/.test(s));
    if (removable.length > 1 && req.temperature > 0 && rng.next() < 0.15) {
      const drop = removable[rng.int(removable.length)]!;
      return sentences.filter((s) => s !== drop).join("\n");
    }
    const m = /Suggested instruction: (.+)$/.exec(req.critique);
    if (!m) return req.prompt;
    const at = req.temperature <= 0 ? sentences.length : rng.int(sentences.length + 1);
    return [...sentences.slice(0, at), m[1]!, ...sentences.slice(at)].join("\n");
  },
};
