// Tickets in the database (SQLite or PostgreSQL): the destination a canary writes through and re-reads.
// Each effect is one read-check-write transaction locked on its ticket: the next state is computed by
// the same pure applyTicketEffect as everywhere else, an effect out of order is refused, and the
// ticket row and its history row commit together or not at all.
import type { Database, Tx } from "@/server/db/client";
import { canonicalJson, hexId } from "@/server/digest";
import type { Effect } from "../types";
import type { TicketDestination } from "./destination";
import { applyTicketEffect, type TicketRecord, type TicketStatus } from "./ticket";

type TicketRow = Omit<TicketRecord, "status" | "assignee"> & { status: string; assignee: string };

function toRecord(row: TicketRow): TicketRecord {
  return {
    id: row.id,
    taskId: row.taskId,
    status: row.status as TicketStatus,
    category: row.category,
    priority: row.priority,
    assignee: row.assignee as TicketRecord["assignee"],
    queue: row.queue,
    resolution: row.resolution,
    accountDeleted: row.accountDeleted,
    answerIntent: row.answerIntent,
    answerArticle: row.answerArticle,
    answerAccountRef: row.answerAccountRef,
    events: row.events,
  };
}

const SELECT = {
  id: true,
  taskId: true,
  status: true,
  category: true,
  priority: true,
  assignee: true,
  queue: true,
  resolution: true,
  accountDeleted: true,
  answerIntent: true,
  answerArticle: true,
  answerAccountRef: true,
  events: true,
} as const;

export type TicketHistoryEntry = { seq: number; kind: string; tool: string | null; toolVersion: string | null; payload: Record<string, unknown> };

export class DatabaseTicketDestination implements TicketDestination {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async apply(effect: Effect): Promise<void> {
    await this.#database.transaction(
      async (tx: Tx) => {
        const row = await tx.ticket.findUnique({ where: { id: effect.target }, select: SELECT });
        const next = applyTicketEffect(row ? toRecord(row) : null, effect);
        const { id, ...fields } = next;
        if (row) await tx.ticket.update({ where: { id }, data: fields });
        else await tx.ticket.create({ data: next });
        await tx.ticketEvent.create({
          data: {
            id: `te-${hexId(16, effect.target, effect.seq)}`,
            ticketId: effect.target,
            seq: effect.seq,
            kind: effect.kind,
            tool: effect.tool?.name ?? null,
            toolVersion: effect.tool?.version ?? null,
            payload: canonicalJson(effect.payload),
          },
        });
      },
      { locks: [`ticket:${effect.target}`] },
    );
  }

  async read(target: string): Promise<TicketRecord | null> {
    const row = await this.#database.db.ticket.findUnique({ where: { id: target }, select: SELECT });
    return row ? toRecord(row) : null;
  }

  /** The ticket's effects in order, as stored. */
  async history(target: string): Promise<TicketHistoryEntry[]> {
    const rows = await this.#database.db.ticketEvent.findMany({ where: { ticketId: target }, orderBy: { seq: "asc" } });
    return rows.map((r) => ({ seq: r.seq, kind: r.kind, tool: r.tool, toolVersion: r.toolVersion, payload: JSON.parse(r.payload) as Record<string, unknown> }));
  }
}

/** Writes an episode's effects in order (what a canary runner does after, or while, running it). */
export async function writeEffects(destination: TicketDestination, effects: readonly Effect[]): Promise<void> {
  for (const effect of effects) await destination.apply(effect);
}
