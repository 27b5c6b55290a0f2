// "Restore from this checkpoint" as W&B's fork / MLflow's new run from an artifact: a NEW queued run that starts
// from the source run's sealed checkpoint, never a rewind of the source. The source's history, candidates and the
// receipts that cite it stay exactly as they were (a rewind would orphan candidates already at the gate and rewrite
// what an audit row already vouched for). The new run copies the source's pins, config and seed, the checkpoint
// row and its metrics up to that update (so its curve starts where the source's was), and records where it
// came from; a worker resumes it like any interrupted run, so without changes it continues bit for bit as the
// source did. Only the update budget and the name may differ.
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { newId } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { createQueuedRun } from "./lifecycle";
import { runLock } from "./runs";
import { refreshRunSummary } from "./summary";

export type RestoreInput = { runId: string; update: number; updates?: number | null; name?: string | null };

export async function restoreFromCheckpoint(database: Database, input: RestoreInput, actor: AuditActor) {
  return database.transaction(
    async (tx) => {
      const source = await tx.trainingRun.findUnique({ where: { id: input.runId } });
      if (!source) throw new DomainError("NOT_FOUND", `runId: no training run ${input.runId}`, "runId");
      const checkpoint = await tx.trainingCheckpoint.findUnique({ where: { runId_update: { runId: source.id, update: input.update } } });
      if (!checkpoint) throw new DomainError("NOT_FOUND", `update: run ${source.id} has no checkpoint at update ${input.update}`, "update");
      const updatesTotal = input.updates ?? source.updatesTotal;
      if (updatesTotal <= input.update) throw new DomainError("BAD_REQUEST", `updates: must be more than the checkpoint's update ${input.update} (got ${updatesTotal})`, "updates");
      const metrics = await tx.trainingMetric.findMany({ where: { runId: source.id, update: { lte: input.update } }, orderBy: { update: "asc" } });
      const id = newId("run");
      const name = input.name?.trim() || `${source.name ?? source.id} @ update ${input.update}`;
      const { id: _id, name: _name, status: _s, statusReason: _r, workerId: _w, leaseUntil: _l, createdAt: _c, startedAt: _st, finishedAt: _f, updatedAt: _u, ...kept } = source;
      const run = await createQueuedRun(tx, {
        ...kept,
        id,
        name,
        updatesTotal,
        updatesDone: input.update,
        episodesDone: metrics.reduce((a, m) => a + m.episodes, 0),
        restoredFromRunId: source.id,
        restoredFromUpdate: input.update,
        startedById: actor.id,
      });
      await tx.trainingCheckpoint.create({ data: { runId: id, update: checkpoint.update, digest: checkpoint.digest, state: checkpoint.state } });
      if (metrics.length) await tx.trainingMetric.createMany({ data: metrics.map((m) => ({ ...m, runId: id })) });
      await refreshRunSummary(tx, id); // its summary is that of the copied updates, not the source's whole run
      const message = `${actor.name} restored ${source.id} from its checkpoint at update ${input.update} (${checkpoint.digest.slice(0, 19)}…) into a new run of ${updatesTotal} updates`;
      await tx.trainingEvent.create({ data: { id: newId("tev"), runId: id, kind: "restored", message } });
      await tx.trainingEvent.create({ data: { id: newId("tev"), runId: source.id, kind: "restored", message: `${actor.name} restored its checkpoint at update ${input.update} into ${id}` } });
      await appendAudit(tx, {
        actor,
        action: "training.restore",
        target: { type: "training_run", id },
        before: { runId: source.id, update: input.update, checkpointDigest: checkpoint.digest },
        after: { runId: id, updates: updatesTotal, name },
      });
      return run;
    },
    { locks: [AUDIT_LOCK, runLock(input.runId)] },
  );
}
