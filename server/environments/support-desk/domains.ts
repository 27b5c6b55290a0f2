// Task families of the support desk — the "domains" that task-specific fine-tuning, continual
// learning, meta-learning and evaluation talk about — and how hard a ticket is.
import { subDistribution } from "../distributions";
import type { EnvTask, TaskDistribution } from "../types";
import { INTENT_FACTS, needsClarification, requiresEscalation, type DeskTask, type Intent } from "./catalog";

/** Intent families: questions a customer can serve themselves with help, incidents, and protected requests. */
export const DESK_DOMAINS = {
  "self-serve": ["how_to", "billing_question", "password_reset", "feature_request"],
  incident: ["bug_report", "outage_report", "refund_request"],
  protected: ["account_deletion", "legal_threat", "pii_request"],
} as const satisfies Record<string, readonly Intent[]>;
export type DeskDomain = keyof typeof DESK_DOMAINS;
export const DESK_DOMAIN_NAMES = Object.keys(DESK_DOMAINS) as DeskDomain[];

export function deskDomainOf(intent: string): DeskDomain {
  for (const d of DESK_DOMAIN_NAMES) if ((DESK_DOMAINS[d] as readonly string[]).includes(intent)) return d;
  throw new Error(`intent "${intent}" belongs to no support-desk domain`);
}

export function deskDomainOfTask(task: EnvTask): DeskDomain {
  return deskDomainOf(task.attributes.intent ?? "");
}

/** `base` restricted to one domain's intents (or any set of intents, under `label`). */
export function deskDomainDistribution(base: TaskDistribution, domain: DeskDomain): TaskDistribution {
  return subDistribution(base, "intent", DESK_DOMAINS[domain], domain);
}

export function deskIntentDistribution(base: TaskDistribution, intents: readonly Intent[], label: string): TaskDistribution {
  return subDistribution(base, "intent", intents, label);
}

/**
 * How many decisions a correct handling takes: clarification when the ticket is vague, then either the
 * hand-off, or the context and article the answer needs, the answer, the record and the close. The
 * curriculum's difficulty score (the seed's "interaction length" and "ambiguity level").
 */
export function deskStepsRequired(task: DeskTask): number {
  const clarify = needsClarification(task) ? 1 : 0;
  if (requiresEscalation(task)) return clarify + 1;
  const facts = INTENT_FACTS[task.attributes.intent];
  return clarify + (facts.needsContext ? 1 : 0) + (facts.needsInfo ? 1 : 0) + 3;
}

/** Difficulty in [0, 1]: required steps (3..6 for answered tickets) plus extra weight for high ambiguity. */
export function deskDifficulty(task: EnvTask): number {
  const t = task as DeskTask;
  const steps = deskStepsRequired(t);
  const hidden = t.attributes.ambiguity === "high" ? 1 : 0;
  return Math.min(1, (steps - 1 + hidden) / 6);
}
