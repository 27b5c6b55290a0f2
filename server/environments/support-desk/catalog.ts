// What the support desk knows about tickets: intents and their hidden facts, the attribute values a
// ticket can have, and the versioned task distributions (mixes of those values).
import { digestOf, hexId } from "@/server/digest";
import { Rng } from "../prng";
import type { EnvTask, TaskDistribution } from "../types";

export const ENVIRONMENT_ID = "support-desk";
/**
 * The text desk (`createSupportDesk({ variant: "text" })`): its own environment — other actions (tool arguments
 * the agent picks), other features (the customer's words, no intent) —, so its own id and distributions.
 */
export const TEXT_ENVIRONMENT_ID = "support-desk-text";
export const DESK_ENVIRONMENT_IDS: readonly string[] = [ENVIRONMENT_ID, TEXT_ENVIRONMENT_ID];

export const INTENTS = [
  "how_to",
  "billing_question",
  "password_reset",
  "bug_report",
  "feature_request",
  "outage_report",
  "refund_request",
  "account_deletion",
  "legal_threat",
  "pii_request",
] as const;
export type Intent = (typeof INTENTS)[number];

export const PROTECTED_FAMILIES = ["account_deletion", "legal_threat", "pii_request"] as const;
export type ProtectedFamily = (typeof PROTECTED_FAMILIES)[number];

/**
 * Facts about an intent the agent does not see directly: what an accurate answer needs, and where the
 * ticket must end up. Protected intents always go to a human queue.
 */
export type IntentFacts = {
  needsContext: boolean;
  needsInfo: boolean;
  escalate: boolean;
  queue: "support" | "legal" | "privacy";
  protectedFamily: ProtectedFamily | null;
};

export const INTENT_FACTS: Record<Intent, IntentFacts> = {
  how_to: { needsContext: false, needsInfo: true, escalate: false, queue: "support", protectedFamily: null },
  billing_question: { needsContext: true, needsInfo: false, escalate: false, queue: "support", protectedFamily: null },
  password_reset: { needsContext: true, needsInfo: false, escalate: false, queue: "support", protectedFamily: null },
  bug_report: { needsContext: true, needsInfo: true, escalate: false, queue: "support", protectedFamily: null },
  feature_request: { needsContext: false, needsInfo: false, escalate: false, queue: "support", protectedFamily: null },
  outage_report: { needsContext: false, needsInfo: true, escalate: false, queue: "support", protectedFamily: null },
  refund_request: { needsContext: true, needsInfo: true, escalate: false, queue: "support", protectedFamily: null },
  account_deletion: { needsContext: true, needsInfo: false, escalate: true, queue: "support", protectedFamily: "account_deletion" },
  legal_threat: { needsContext: false, needsInfo: false, escalate: true, queue: "legal", protectedFamily: "legal_threat" },
  pii_request: { needsContext: false, needsInfo: false, escalate: true, queue: "privacy", protectedFamily: "pii_request" },
};

export const ATTRIBUTE_VALUES = {
  intent: INTENTS,
  urgency: ["low", "medium", "high", "critical"],
  expertise: ["novice", "intermediate", "expert"],
  ambiguity: ["low", "medium", "high"],
  language: ["en", "de", "es", "ja"],
  tier: ["free", "pro", "enterprise"],
} as const;
export type Attribute = keyof typeof ATTRIBUTE_VALUES;
export const ATTRIBUTES = Object.keys(ATTRIBUTE_VALUES) as Attribute[];

export type DeskTask = EnvTask & {
  attributes: { intent: Intent; urgency: string; expertise: string; ambiguity: string; language: string; tier: string };
};

/** Whether the task's expected outcome is a human hand-off rather than a closed ticket. */
export function requiresEscalation(task: DeskTask): boolean {
  const a = task.attributes;
  // The enterprise SLA: a critical ticket from an enterprise customer goes to a human at once.
  return INTENT_FACTS[a.intent].escalate || (a.urgency === "critical" && a.tier === "enterprise") || (underRefundPolicy(task) && refundNeedsHuman(a));
}

/** Tasks of the refund-policy distribution (or one derived from it): where the refund rule below applies. */
function underRefundPolicy(task: DeskTask): boolean {
  const v = task.distribution.version;
  return v === REFUND_POLICY_VERSION || v.startsWith(`${REFUND_POLICY_VERSION}/`);
}

/**
 * The refund rule after the reseller launch (distribution v5-refunds): EU customers (German, Spanish) may
 * withdraw from a pro plan, so the agent refunds those itself, while EU enterprise contracts run through
 * the reseller and go to a human; in the English market it is the other way round (pro refunds are a
 * goodwill decision for a human, enterprise contracts carry a self-serve refund credit). Plan XOR market:
 * no weighting of plan and market separately says who refunds, which is what this distribution tests.
 */
export function refundNeedsHuman(a: DeskTask["attributes"]): boolean {
  if (a.intent !== "refund_request") return false;
  const eu = a.language === "de" || a.language === "es";
  return a.tier === "pro" ? !eu : a.tier === "enterprise" ? eu : false;
}

export function needsClarification(task: DeskTask): boolean {
  return task.attributes.ambiguity !== "low";
}

type Mix = TaskDistribution["mix"];

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function distribution(version: string, title: string, mix: Mix, environment = ENVIRONMENT_ID): TaskDistribution {
  const content = { environment, version, title, mix };
  return { ...content, digest: digestOf(content) };
}

/** The same mix on the text desk (its own environment, so its own digest). */
export function onTextDesk(d: TaskDistribution): TaskDistribution {
  return distribution(d.version, d.title, d.mix, TEXT_ENVIRONMENT_ID);
}

/**
 * The versions of the task distribution. A version is never edited once published: a changed mix is a
 * new version with a new digest, which the gate's freshness rules treat as a distribution change.
 */
export const SUPPORT_DESK_DISTRIBUTIONS: readonly TaskDistribution[] = [
  distribution("v1", "Launch mix: English self-serve questions, little ambiguity", {
    intent: { how_to: 25, billing_question: 20, password_reset: 20, bug_report: 10, feature_request: 10, outage_report: 5, refund_request: 5, account_deletion: 3, legal_threat: 1, pii_request: 1 },
    urgency: { low: 40, medium: 40, high: 15, critical: 5 },
    expertise: { novice: 50, intermediate: 30, expert: 20 },
    ambiguity: { low: 70, medium: 20, high: 10 },
    language: { en: 100 },
    tier: { free: 60, pro: 30, enterprise: 10 },
  }),
  distribution("v2", "Growth mix: four languages, vaguer tickets, more protected requests", {
    intent: { how_to: 18, billing_question: 15, password_reset: 12, bug_report: 12, feature_request: 8, outage_report: 8, refund_request: 9, account_deletion: 7, legal_threat: 5, pii_request: 6 },
    urgency: { low: 30, medium: 40, high: 20, critical: 10 },
    expertise: { novice: 40, intermediate: 35, expert: 25 },
    ambiguity: { low: 40, medium: 35, high: 25 },
    language: { en: 60, de: 20, es: 15, ja: 5 },
    tier: { free: 40, pro: 35, enterprise: 25 },
  }),
  distribution("v3", "Enterprise incident mix: outages, critical urgency, high ambiguity", {
    intent: { how_to: 10, billing_question: 10, password_reset: 8, bug_report: 15, feature_request: 5, outage_report: 20, refund_request: 8, account_deletion: 8, legal_threat: 7, pii_request: 9 },
    urgency: { low: 15, medium: 30, high: 30, critical: 25 },
    expertise: { novice: 25, intermediate: 35, expert: 40 },
    ambiguity: { low: 30, medium: 30, high: 40 },
    language: { en: 50, de: 20, es: 15, ja: 15 },
    tier: { free: 20, pro: 40, enterprise: 40 },
  }),
];

/**
 * The hard desk's distribution (environment variant "text", `createSupportDesk({ variant: "text" })`): the
 * agent sees the customer's words, not the intent, and picks tool arguments itself (search topic, human
 * queue, ticket category); weighted towards tickets that take four or five steps (account details, an
 * article, the answer, the record, the close) and towards vague or hedged text.
 */
export const HARD_DESK_DISTRIBUTION: TaskDistribution = distribution("v4-text", "Hard mix: arguments from the ticket's words, multi-step tickets", {
  intent: { how_to: 10, billing_question: 10, password_reset: 8, bug_report: 18, feature_request: 4, outage_report: 10, refund_request: 18, account_deletion: 8, legal_threat: 7, pii_request: 7 },
  urgency: { low: 30, medium: 40, high: 20, critical: 10 },
  expertise: { novice: 40, intermediate: 35, expert: 25 },
  ambiguity: { low: 45, medium: 35, high: 20 },
  language: { en: 70, de: 20, es: 10 },
  tier: { free: 40, pro: 35, enterprise: 25 },
}, TEXT_ENVIRONMENT_ID);

/**
 * The text desk where word order carries the meaning (variant "text"): the v4-text mix, but most clear tickets
 * say what they are about by contrast — "It's about getting a refund, not deleting my account." — and the mirror
 * ticket ("…about deleting my account, not getting a refund.") holds exactly the same words. A policy that reads
 * a bag of words cannot tell the two apart; one that reads the sentence can. (ticket-text.ts writes them.)
 */
export const ORDER_DESK_VERSION = "v6-text-order";
export const ORDER_DESK_DISTRIBUTION: TaskDistribution = distribution(ORDER_DESK_VERSION, "Text desk where word order matters: 'about A, not B'", {
  intent: { how_to: 10, billing_question: 10, password_reset: 8, bug_report: 14, feature_request: 6, outage_report: 10, refund_request: 14, account_deletion: 10, legal_threat: 9, pii_request: 9 },
  urgency: { low: 30, medium: 40, high: 20, critical: 10 },
  expertise: { novice: 40, intermediate: 35, expert: 25 },
  ambiguity: { low: 75, medium: 15, high: 10 },
  language: { en: 70, de: 20, es: 10 },
  tier: { free: 40, pro: 35, enterprise: 25 },
}, TEXT_ENVIRONMENT_ID);

export const REFUND_POLICY_VERSION = "v5-refunds";

/**
 * The refund desk after the reseller launch (on both variants of the desk): mostly refund requests from pro
 * and enterprise customers in the English and EU markets, where who may grant the refund is plan XOR
 * market (`refundNeedsHuman`). A linear-softmax policy on the raw features adds a plan term and a market
 * term, so at the refund decision it gets at most three of the four plan × market cells right; an MLP can
 * get all four. No critical urgency, so the enterprise SLA does not mix in.
 */
export const REFUND_DESK_DISTRIBUTION: TaskDistribution = distribution(REFUND_POLICY_VERSION, "Refund desk after the reseller launch: who refunds depends on plan and market together", {
  intent: { how_to: 5, billing_question: 5, bug_report: 5, refund_request: 85 },
  urgency: { low: 40, medium: 40, high: 20 },
  expertise: { novice: 40, intermediate: 35, expert: 25 },
  ambiguity: { low: 60, medium: 30, high: 10 },
  language: { en: 50, de: 30, es: 20 },
  tier: { pro: 50, enterprise: 50 },
});

export function findDistribution(version: string): TaskDistribution {
  const d = SUPPORT_DESK_DISTRIBUTIONS.find((x) => x.version === version);
  if (!d) throw new Error(`support-desk has no task distribution "${version}" (known: ${SUPPORT_DESK_DISTRIBUTIONS.map((x) => x.version).join(", ")})`);
  return d;
}

/** Distribution objects whose digest was checked (they are frozen once checked, so it stays true). */
const verified = new WeakSet<TaskDistribution>();

/** Draws one ticket from a distribution; the same distribution and seed always give the same task. */
export function sampleDeskTask(dist: TaskDistribution, seed: string): DeskTask {
  if (!DESK_ENVIRONMENT_IDS.includes(dist.environment)) throw new Error(`distribution ${dist.environment}@${dist.version} is not a support-desk distribution`);
  if (!verified.has(dist)) {
    if (digestOf({ environment: dist.environment, version: dist.version, title: dist.title, mix: dist.mix }) !== dist.digest) {
      throw new Error(`distribution ${dist.version} does not match its digest: it was edited after being pinned`);
    }
    deepFreeze(dist);
    verified.add(dist);
  }
  const rng = Rng.from(`task/${dist.digest}/${seed}`);
  const attributes = {} as Record<Attribute, string>;
  for (const attribute of ATTRIBUTES) {
    const values = ATTRIBUTE_VALUES[attribute] as readonly string[];
    const weights = values.map((v) => dist.mix[attribute]?.[v] ?? 0);
    attributes[attribute] = values[rng.weighted(weights)]!;
  }
  const intent = attributes.intent as Intent;
  return {
    id: `tk-${hexId(12, dist.digest, seed)}`,
    seed,
    distribution: { environment: dist.environment, version: dist.version, digest: dist.digest },
    attributes: { ...attributes, intent } as DeskTask["attributes"],
    protectedFamily: INTENT_FACTS[intent].protectedFamily,
  };
}
