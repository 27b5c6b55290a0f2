// The columns the runs list sorts on, server side (the list procedure's zod enum) and in the URL
// (`/training?sort=best_reward&dir=desc`). Runs without a value (no validation yet, not started) sort last
// in both directions.
export const RUN_SORTS = ["created", "name", "updates", "latest_reward", "best_reward", "retry_debt", "duration"] as const;
export type RunSort = (typeof RUN_SORTS)[number];
export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** The list's order when the URL names none: newest first. */
export const DEFAULT_RUN_SORT: { sort: RunSort; dir: SortDirection } = { sort: "created", dir: "desc" };
