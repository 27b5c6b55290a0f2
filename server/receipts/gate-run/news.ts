// News that a gate run was queued (an admission run, or a canary stage an approval queued), for the gate
// orchestrators of every process (server/db/commit-news.ts): announced inside the transaction that queues the run,
// delivered at its commit, so an idle orchestrator steps it at once instead of at its next poll.
import type { Database, Db, Tx } from "@/server/db/client";
import { commitNews } from "@/server/db/commit-news";

const news = commitNews("lightgate_gate_run_queued");

export const onGateRunQueued = (database: Database, fn: (runId: string) => void): (() => void) => news.listen(database, fn);
export const announceGateRun = (client: Db | Tx, runId: string): Promise<void> => news.announce(client, runId);
