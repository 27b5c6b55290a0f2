// The support desk's Ticket DB as its runners and verifiers reach it. It stands in for an external ticket
// system (a help-desk's own database or API): a desk runner serving a canary writes its effects there, and
// a verifier re-reads them there — neither goes through Lightgate's API for it. Its tables (`Ticket`,
// `TicketEvent`) happen to live in Lightgate's schema, so by default it is DATABASE_URL's database;
// LIGHTGATE_DESK_TICKETS_URL points both at another one.
import { openDatabase, type Database } from "@/server/db/client";
import { resolveDbTarget } from "@/server/db/config";
import type { Destination } from "../types";
import { DESK_ENVIRONMENT_IDS } from "./catalog";
import { DatabaseTicketDestination } from "./destination-db";

export const TICKETS_URL_VARIABLE = "LIGHTGATE_DESK_TICKETS_URL";

/** Finds where an environment's effects land; null when this process has no destination for it. */
export type DestinationResolver = (environmentId: string) => Promise<Destination<unknown> | null>;

export function ticketDbUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  return env[TICKETS_URL_VARIABLE]?.trim() || env.DATABASE_URL?.trim() || undefined;
}

/** Opens the Ticket DB on first use (a runner that never serves a canary never connects). */
export class TicketDb {
  readonly #url: string | undefined;
  #database: Promise<Database> | null = null;

  constructor(url: string | undefined = ticketDbUrl()) {
    this.#url = url;
  }

  readonly resolve: DestinationResolver = async (environmentId) => {
    if (!DESK_ENVIRONMENT_IDS.includes(environmentId)) return null;
    if (!this.#database) {
      const opening = openDatabase(resolveDbTarget(this.#url));
      this.#database = opening;
      // A database that could not be opened is tried again next time, not remembered as failed.
      opening.catch(() => {
        if (this.#database === opening) this.#database = null;
      });
    }
    return new DatabaseTicketDestination(await this.#database);
  };

  async close(): Promise<void> {
    if (this.#database) await (await this.#database.catch(() => null))?.close();
  }
}
