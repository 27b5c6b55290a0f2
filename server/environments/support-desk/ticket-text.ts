// The ticket as a person (or a language model) reads it: templated, varied customer text chosen by the
// task seed, a header line with plan/urgency/language in words, and what has been done so far. A vague
// ticket does not say what it is about until the agent asks; the customer's reply is then appended.
// This is what prompt-driven agents see — never feature names.
import { Rng } from "../prng";
import { INTENT_FACTS, INTENTS, ORDER_DESK_VERSION, type DeskTask, type Intent } from "./catalog";

const ASKS: Record<Intent, readonly string[]> = {
  how_to: ["How do I export my monthly report as a spreadsheet?", "Where is the setting to invite a colleague to my workspace?", "Can you walk me through connecting the calendar integration?"],
  billing_question: ["Why was I charged twice on my last invoice?", "My invoice shows a plan I never picked — what is this charge?", "Can you explain the extra line on this month's bill?"],
  password_reset: ["I can't log in, the password reset link never arrives.", "I forgot my password and the reset e-mail expired.", "Locked out of my account after too many password attempts."],
  bug_report: ["The dashboard crashes with an error whenever I open the reports tab.", "Saving a form throws an error and my changes are lost.", "There's a bug: the app freezes when I upload a file."],
  feature_request: ["It would be great if you added a dark mode.", "Please consider a way to schedule reports weekly — a suggestion.", "Feature idea: let us tag tickets with colours."],
  outage_report: ["Your service is down for everyone in our office.", "Nothing loads, is there an outage right now?", "The whole platform has been down since this morning."],
  refund_request: ["I'd like a refund for the annual plan I bought by mistake.", "Please refund my last payment, the product didn't work for us.", "Can I get my money back for the unused months?"],
  account_deletion: ["Please delete my account and everything in it.", "I want my account closed and deleted permanently.", "Remove my account, I'm leaving the service."],
  legal_threat: ["If this isn't fixed today my lawyer will be in touch.", "We are preparing legal action over the lost data.", "Consider this a formal notice before we sue."],
  pii_request: ["Send me a copy of all the personal data you hold about me.", "Under GDPR I request every record of my personal information.", "What personal data do you store on me? I want an export."],
};

/** What each intent is about, as a noun phrase: the contrast tickets of v6-text-order name two of them. */
const TOPIC: Record<Intent, string> = {
  how_to: "how to use a setting",
  billing_question: "a charge on my invoice",
  password_reset: "resetting my password",
  bug_report: "a bug in the app",
  feature_request: "an idea for a new feature",
  outage_report: "the service being down",
  refund_request: "getting a refund",
  account_deletion: "deleting my account",
  legal_threat: "legal action",
  pii_request: "a copy of my personal data",
};
/** Each names the meant topic first and the other second; the mirror ticket holds the very same words. */
const CONTRAST: readonly ((meant: string, other: string) => string)[] = [
  (a, b) => `It's about ${a}, not ${b}.`,
  (a, b) => `I'm writing about ${a} and not about ${b}.`,
  (a, b) => `This concerns ${a} rather than ${b}.`,
];
/** Share of clear (low-ambiguity) tickets of v6-text-order written as a contrast. */
const CONTRAST_SHARE = 0.7;

const VAGUE: readonly string[] = ["Hi, something's not right with my account, can you help?", "I have a problem and need help please.", "Hello, it's about my account. Please get back to me."];
const HEDGE: readonly string[] = ["Not sure if this is the right place to ask.", "I'm not sure how to describe it exactly.", "Maybe I'm missing something obvious."];
const URGENCY: Record<string, string> = { low: "No rush on this.", medium: "", high: "This is urgent for us.", critical: "This is critical: we are blocked right now." };
const PLAN: Record<string, string> = { free: "free plan", pro: "pro plan", enterprise: "enterprise plan" };
const LANGUAGE: Record<string, string> = { en: "English", de: "German", es: "Spanish", ja: "Japanese" };
const EXPERTISE: Record<string, string> = { novice: "new user", intermediate: "regular user", expert: "expert user" };

export type TicketProgress = { clarified: boolean; context: boolean; article: string | null; answered: boolean; updated: boolean; toolFailed: boolean; step: number; maxSteps: number };

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)]!;
}

/** The customer's first message (seeded variant), and what they say when asked to clarify. */
export function customerText(task: DeskTask): { opening: string; clarification: string } {
  // Every observation of every episode asks; an episode keeps its task object, so remember per object.
  let said = written.get(task);
  if (!said) {
    said = write(task);
    written.set(task, said);
  }
  return said;
}
const written = new WeakMap<DeskTask, { opening: string; clarification: string }>();

function write(task: DeskTask): { opening: string; clarification: string } {
  const a = task.attributes;
  const rng = Rng.from(`ticket-text/${task.id}`);
  const ask = pick(rng, ASKS[a.intent]);
  const hedge = pick(rng, HEDGE);
  const vague = pick(rng, VAGUE);
  const urgency = URGENCY[a.urgency] ?? "";
  if (a.ambiguity === "low" && task.distribution.version === ORDER_DESK_VERSION && rng.next() < CONTRAST_SHARE) {
    const others = INTENTS.filter((i) => i !== a.intent);
    const say = pick(rng, CONTRAST)(TOPIC[a.intent], TOPIC[pick(rng, others)]);
    return { opening: `${say} ${urgency}`.trim(), clarification: ask };
  }
  const opening = a.ambiguity === "high" ? `${vague} ${urgency}` : a.ambiguity === "medium" ? `${ask} ${hedge} ${urgency}` : `${ask} ${urgency}`;
  return { opening: opening.trim(), clarification: ask };
}

/** The full ticket text an agent reads at this point of the episode. */
export function ticketText(task: DeskTask, p: TicketProgress): string {
  const a = task.attributes;
  const { opening, clarification } = customerText(task);
  const lines = [`From: ${EXPERTISE[a.expertise] ?? a.expertise} on the ${PLAN[a.tier] ?? a.tier}, writing in ${LANGUAGE[a.language] ?? a.language}.`, `Customer: ${opening}`];
  if (p.clarified) lines.push(`Customer (after your question): ${clarification}`);
  const done: string[] = [];
  if (p.clarified) done.push("asked a clarifying question");
  if (p.context) done.push(INTENT_FACTS[a.intent].needsContext ? "received the customer's account details" : "asked for account details");
  if (p.article) done.push(`found knowledge-base article ${p.article}`);
  if (p.answered) done.push("answered the customer");
  if (p.updated) done.push("recorded category and priority on the ticket");
  lines.push(`Done so far: ${done.length ? done.join("; ") : "nothing yet"}.`);
  if (p.toolFailed) lines.push("The last tool call failed.");
  lines.push(`Step ${p.step + 1} of ${p.maxSteps}.`);
  return lines.join("\n");
}
