// The training-run lifecycle as the model-based test expects it (ARCHITECTURE.md, "Lifecycles"), written out
// here rather than imported: the test must not judge the machine by the machine's own table.
export type Status = "queued" | "running" | "paused" | "finished" | "stopped" | "failed";
export const PEOPLE = ["Tess Trainer", "Oscar Operator"] as const;
export const WORKERS = ["w1", "w2"] as const;
export type Person = (typeof PEOPLE)[number];
export type Worker = (typeof WORKERS)[number];
export const LEASE_MS = 10_000;
export const STOP_CONDITION = "Retry debt 328 is over the bound 100.";
export const FAILURE = "runner error: tool hung";

/** A person's move (through changeRunStatus, audited) or a worker's (through the lifecycle's writer). */
export type Ev =
  | { kind: "pause" | "resume" | "stop"; by: Person }
  | { kind: "claim" | "pauseOnStopCondition" | "fail"; worker: Worker }
  | { kind: "finish"; worker: Worker; familyEnded: boolean };
/** A worker's housekeeping: renewing its lease, letting go. Neither moves the status. */
export type Hold = { kind: "renew" | "letGo"; worker: Worker };

/** A run as the model sees it: the status with its reason, and the worker's hold (lease in ms since epoch). */
export type ModelRun = { status: Status; reason: string | null; holder: string | null; leaseUntil: number | null };

export const ENDED: readonly Status[] = ["finished", "stopped", "failed"];
/** Every move the lifecycle may make (running → running: another worker takes over a lapsed lease). */
export const EDGES = new Set([
  "queued→running",
  "queued→paused",
  "queued→stopped",
  "running→running",
  "running→paused",
  "running→stopped",
  "running→finished",
  "running→failed",
  "paused→queued",
  "paused→stopped",
  "paused→finished",
  "paused→failed",
]);

export const QUEUED: ModelRun = { status: "queued", reason: null, holder: null, leaseUntil: null };

/** Where `e` takes `r` at `now`; null when the lifecycle must refuse it. */
export function expected(r: ModelRun, e: Ev, now: number): ModelRun | null {
  if (ENDED.includes(r.status)) return null;
  const heldBy = (w: string) => r.holder === w;
  switch (e.kind) {
    case "pause":
      return r.status === "queued" || r.status === "running" ? { ...r, status: "paused", reason: `paused by ${e.by}` } : null;
    case "resume":
      return r.status === "paused" ? { status: "queued", reason: null, holder: null, leaseUntil: null } : null;
    case "stop":
      return { ...r, status: "stopped", reason: `stopped by ${e.by}` };
    case "claim": {
      const lapsed = r.leaseUntil === null || r.leaseUntil < now;
      return r.status === "queued" || (r.status === "running" && lapsed) ? { status: "running", reason: null, holder: e.worker, leaseUntil: now + LEASE_MS } : null;
    }
    case "pauseOnStopCondition":
      return r.status === "running" && heldBy(e.worker) ? { status: "paused", reason: `stop condition: ${STOP_CONDITION}`, holder: null, leaseUntil: null } : null;
    case "finish":
      return (r.status === "running" || r.status === "paused") && heldBy(e.worker) ? { status: "finished", reason: e.familyEnded ? "the family finished early" : null, holder: null, leaseUntil: null } : null;
    case "fail":
      return (r.status === "running" || r.status === "paused") && heldBy(e.worker) ? { status: "failed", reason: FAILURE, holder: null, leaseUntil: null } : null;
  }
}

/** The hold after a worker's housekeeping (never a refusal: a worker that lost the run simply learns it). */
export function expectedHold(r: ModelRun, h: Hold, now: number): ModelRun {
  if (h.kind === "renew") return r.status === "running" && r.holder === h.worker ? { ...r, leaseUntil: now + LEASE_MS } : r;
  return r.holder === h.worker ? { ...r, holder: null, leaseUntil: null } : r;
}

export const describeEv = (e: Ev | Hold) => ("by" in e ? `${e.by} ${e.kind}s` : `${e.worker} ${e.kind}${e.kind === "finish" && e.familyEnded ? " (family ended)" : ""}`);
