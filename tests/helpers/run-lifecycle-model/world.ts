// The real side of the run-lifecycle model test: runs in a real database, moved the way the product moves them —
// a person's pause/resume/stop through changeRunStatus (a transaction with its event and audit row), a worker's
// claim, stop-condition pause, finish and failure through the lifecycle's writer, its lease and letting go through
// the lifecycle's hold helpers — on a clock the test advances.
import type { AuditActor } from "@/server/audit/audit-log";
import { AUDIT_LOCK } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { letGo, moveRun, renewHold, type RunEvent } from "@/server/training/lifecycle";
import { changeRunStatus, insertRun, type PreparedRun } from "@/server/training/runs";
import { ppoRun, STARTER } from "../training-runs";
import { FAILURE, LEASE_MS, STOP_CONDITION, type Ev, type Hold, type ModelRun, type Status } from "./spec";

/** A move that happened: the status it left and reached (a person's from its audit row, a worker's from the writer). */
export type Move = { label: string; from: string; to: string };
export type Outcome = { ok: true; move: Move } | { ok: false; message: string };
/** What a run looks like in the database, in the model's terms, and when it ended. */
export type Observed = ModelRun & { finishedAt: number | null; updatedAt: number };

const person = (name: string): AuditActor => ({ kind: "user", id: `u-${name.split(" ")[0]!.toLowerCase()}`, name, grants: [{ role: "trainer", agent: null }] });

/** A run the lifecycle may move, recorded as the product records one (insertRun: queued, its event and audit row). */
function prepared(n: number): PreparedRun {
  const pins = { environment: "support-desk", distribution: "v2", heldOutCases: 60, dataSnapshotDigest: null, parentResourcesId: "initial-support-desk-policy", parentVersion: 1, parentDigest: "sha256:parent" };
  return { input: ppoRun({ seed: `model-${n}` }), config: {}, pins, snapshotId: null, revision: "test", parentRef: { resourcesId: pins.parentResourcesId, version: 1, digest: pins.parentDigest } };
}

export class RunWorld {
  clock: number;
  #runs = 0;
  constructor(
    readonly database: Database,
    start: Date,
  ) {
    this.clock = start.getTime();
  }

  async newRun(): Promise<string> {
    const run = await this.database.transaction((tx) => insertRun(tx, prepared(this.#runs++), STARTER), { locks: [AUDIT_LOCK] });
    return run.id;
  }

  /** Applies `e` to the run; a refusal must be the lifecycle's CONFLICT (anything else fails the test). */
  async apply(runId: string, e: Ev): Promise<Outcome> {
    const now = new Date(this.clock);
    try {
      if ("by" in e) {
        await changeRunStatus(this.database, runId, e.kind, person(e.by));
        const audit = await this.database.db.auditEvent.findFirstOrThrow({ where: { targetType: "training_run", targetId: runId, action: `training.${e.kind}` }, orderBy: { seq: "desc" } });
        const [from, to] = [audit.before, audit.after].map((j) => (JSON.parse(j ?? "{}") as { status?: string }).status ?? "?");
        return { ok: true, move: { label: e.kind, from: from!, to: to! } };
      }
      const event: RunEvent =
        e.kind === "claim"
          ? { kind: "claim", workerId: e.worker, leaseMs: LEASE_MS }
          : e.kind === "pauseOnStopCondition"
            ? { kind: e.kind, workerId: e.worker, reason: STOP_CONDITION }
            : e.kind === "finish"
              ? { kind: e.kind, workerId: e.worker, familyEnded: e.familyEnded }
              : { kind: e.kind, workerId: e.worker, message: FAILURE };
      const m = await moveRun(this.database.db, runId, event, now);
      return { ok: true, move: { label: e.kind, from: m.from, to: m.to } };
    } catch (err) {
      if (err instanceof DomainError && err.code === "CONFLICT") return { ok: false, message: err.message };
      throw err;
    }
  }

  async hold(runId: string, h: Hold): Promise<void> {
    if (h.kind === "renew") await renewHold(this.database.db, runId, h.worker, LEASE_MS, new Date(this.clock));
    else await letGo(this.database.db, runId, h.worker);
  }

  async observe(runId: string): Promise<Observed> {
    const r = await this.database.db.trainingRun.findUniqueOrThrow({ where: { id: runId } });
    return { status: r.status as Status, reason: r.statusReason, holder: r.workerId, leaseUntil: r.leaseUntil?.getTime() ?? null, finishedAt: r.finishedAt?.getTime() ?? null, updatedAt: r.updatedAt.getTime() };
  }

  /** A person's moves as the audit log and the run's events recorded them. */
  async personRecords(runId: string): Promise<{ audited: number; events: number }> {
    const kinds = ["pause", "resume", "stop"];
    const [audited, events] = await Promise.all([
      this.database.db.auditEvent.count({ where: { targetType: "training_run", targetId: runId, action: { in: kinds.map((k) => `training.${k}`) } } }),
      this.database.db.trainingEvent.count({ where: { runId, kind: { in: kinds } } }),
    ]);
    return { audited, events };
  }
}
