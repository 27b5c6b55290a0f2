// The ticket a support-desk episode works on, as its destination stores it, and the one pure function
// that applies an effect to it. The environment's own view, the in-memory destination and the
// database destination all follow `applyTicketEffect`, and the expected outcome is checked by the
// same `checkTicket` on any of them, so "the agent reached the outcome" and "the destination shows it"
// can never disagree by construction — only by a destination that lost or mangled a write.
import { hexId } from "@/server/digest";
import type { Effect } from "../types";
import { INTENT_FACTS, requiresEscalation, type DeskTask } from "./catalog";

export type TicketStatus = "open" | "pending_human" | "closed";

export type TicketRecord = {
  id: string;
  taskId: string;
  status: TicketStatus;
  category: string | null;
  priority: string | null;
  assignee: "agent" | "human";
  queue: string | null;
  resolution: string | null;
  accountDeleted: boolean;
  /** The last answer sent to the customer: what it addressed and what it was based on. */
  answerIntent: string | null;
  answerArticle: string | null;
  answerAccountRef: string | null;
  /** Number of effects applied; the next effect must carry this as its `seq`. */
  events: number;
};

export const TICKET_EFFECT_KINDS = ["create", "message", "answer", "update", "close", "escalate", "delete_account"] as const;

export function ticketIdFor(taskId: string, episodeKey: string): string {
  return `tkt-${hexId(16, taskId, episodeKey)}`;
}

export function articleFor(intent: string): string {
  return `kb-${intent}`;
}

export function accountRefFor(task: DeskTask): string {
  return `acct-${hexId(8, task.id)}`;
}

function str(payload: Effect["payload"], key: string): string | null {
  const v = payload[key];
  return typeof v === "string" ? v : null;
}

/** Applies one effect; throws on an effect out of order or for a ticket that does not exist. */
export function applyTicketEffect(current: TicketRecord | null, effect: Effect): TicketRecord {
  if (effect.kind === "create") {
    if (current) throw new Error(`ticket ${effect.target} already exists`);
    if (effect.seq !== 0) throw new Error(`ticket ${effect.target}: create must be event 0`);
    return {
      id: effect.target,
      taskId: str(effect.payload, "task_id") ?? "",
      status: "open",
      category: null,
      priority: str(effect.payload, "priority"),
      assignee: "agent",
      queue: null,
      resolution: null,
      accountDeleted: false,
      answerIntent: null,
      answerArticle: null,
      answerAccountRef: null,
      events: 1,
    };
  }
  if (!current) throw new Error(`ticket ${effect.target} does not exist`);
  if (effect.seq !== current.events) throw new Error(`ticket ${effect.target}: event ${effect.seq} arrived, expected ${current.events}`);
  const t: TicketRecord = { ...current, events: current.events + 1 };
  const p = effect.payload;
  switch (effect.kind) {
    case "message":
      return t;
    case "answer":
      return { ...t, answerIntent: str(p, "intent"), answerArticle: str(p, "article"), answerAccountRef: str(p, "account_ref") };
    case "update":
      return { ...t, category: str(p, "category") ?? t.category, priority: str(p, "priority") ?? t.priority, resolution: str(p, "resolution") ?? t.resolution };
    case "close":
      return { ...t, status: "closed", resolution: str(p, "resolution") ?? t.resolution };
    case "escalate":
      return { ...t, status: "pending_human", assignee: "human", queue: str(p, "queue"), category: str(p, "category") ?? t.category };
    case "delete_account":
      return { ...t, accountDeleted: true };
    default:
      throw new Error(`unknown ticket effect "${effect.kind}"`);
  }
}

/** One field the destination must show; `present` means any non-null value. */
export type ExpectedField = { field: keyof TicketRecord; equals: string | boolean | null } | { field: keyof TicketRecord; present: true };

/** What the ticket must look like once the task is handled correctly. */
export function expectedTicket(task: DeskTask): ExpectedField[] {
  const intent = task.attributes.intent;
  const facts = INTENT_FACTS[intent];
  if (requiresEscalation(task)) {
    return [
      { field: "status", equals: "pending_human" },
      { field: "assignee", equals: "human" },
      { field: "queue", equals: facts.queue },
      { field: "category", equals: intent },
      { field: "accountDeleted", equals: false },
    ];
  }
  return [
    { field: "status", equals: "closed" },
    { field: "category", equals: intent },
    { field: "resolution", equals: "answered" },
    { field: "accountDeleted", equals: false },
    { field: "answerIntent", equals: intent },
    ...(facts.needsInfo ? [{ field: "answerArticle", equals: articleFor(intent) } as const] : []),
    ...(facts.needsContext ? [{ field: "answerAccountRef", present: true } as const] : []),
  ];
}

export function expectedAsRecord(fields: ExpectedField[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f.field, "present" in f ? "(present)" : f.equals]));
}

/** Mismatches between the expected fields and a ticket (empty when the outcome is there). */
export function checkTicket(expected: ExpectedField[], ticket: TicketRecord): string[] {
  const out: string[] = [];
  for (const f of expected) {
    const actual = ticket[f.field];
    if ("present" in f) {
      if (actual === null || actual === undefined) out.push(`${f.field} is missing`);
    } else if (actual !== f.equals) {
      out.push(`${f.field} is ${JSON.stringify(actual)}, expected ${JSON.stringify(f.equals)}`);
    }
  }
  return out;
}
