// Ticket storage the support desk writes through. Training uses the in-memory destination; a canary
// uses the database one (destination-db.ts) so the outcome can be re-read from where it really landed.
import type { Destination, Effect } from "../types";
import { applyTicketEffect, type TicketRecord } from "./ticket";

export type TicketDestination = Destination<TicketRecord>;

export class InMemoryTicketDestination implements TicketDestination {
  readonly #tickets = new Map<string, TicketRecord>();

  async apply(effect: Effect): Promise<void> {
    this.applySync(effect);
  }

  /** Training loops write thousands of tickets; they need no await per write. */
  applySync(effect: Effect): void {
    this.#tickets.set(effect.target, applyTicketEffect(this.#tickets.get(effect.target) ?? null, effect));
  }

  async read(target: string): Promise<TicketRecord | null> {
    const t = this.#tickets.get(target);
    return t ? { ...t } : null;
  }

  get size(): number {
    return this.#tickets.size;
  }
}
