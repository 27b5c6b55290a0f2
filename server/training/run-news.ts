// News that a training run was queued, for idle trainer workers in any process (server/db/commit-news.ts): the run
// lifecycle announces it inside the transaction that queues the run; PostgreSQL delivers it at the commit.
import type { Database, Db, Tx } from "@/server/db/client";
import { commitNews } from "@/server/db/commit-news";

const news = commitNews("lightgate_run_queued");

/** Calls `fn` with the id of every run queued (by any process) while subscribed; returns the unsubscribe. */
export const onRunQueued = (database: Database, fn: (runId: string) => void): (() => void) => news.listen(database, fn);

/** Inside the transaction that queues `runId` (run lifecycle): heard by the listeners when, and if, it commits. */
export const announceQueuedRun = (client: Db | Tx, runId: string): Promise<void> => news.announce(client, runId);
