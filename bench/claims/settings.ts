// What every engine in `npm run bench:claims` is given, so the comparison is like for like: the same poll, and
// the same time after which a job whose worker went silent may run again (Lightgate's lease; pg-boss's
// expiry, which it has instead of a lease — a worker cannot renew it; graphile-worker's is fixed at 4 hours).
export type Engine = "lease" | "pg-boss" | "graphile";
export const ENGINES: Engine[] = ["lease", "pg-boss", "graphile"];

/** A job: its name in the bench's report and how long its work lasts. */
export type JobData = { key: string; seconds: number };

export const CLAIM_SETTINGS = {
  pollSeconds: 0.5,
  leaseSeconds: 15,
  pgBoss: {
    // Expired active jobs are found by maintenance (its supervision); every second, its minimum, so its own
    // interval adds next to nothing to the takeover.
    constructor: { maintenanceIntervalSeconds: 1 },
    send: { expireInSeconds: 15, retryLimit: 5, retryDelay: 0 },
  },
} as const;
