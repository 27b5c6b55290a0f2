// Specs that need a worker's queue to themselves (or records that must not be trained) stop the runs left open as
// a person would — through the run lifecycle (changeRunStatus: the status, its event and audit row), never by
// writing the status. Runs a worker ended meanwhile are left as they are.
import type { AuditActor } from "@/server/audit/audit-log";
import type { Database, Prisma } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { changeRunStatus } from "@/server/training/runs";

/** Stops every queued, running or paused run `where` selects, as `by` (named in "stopped by …"); how many it stopped. */
export async function stopOpenRuns(database: Database, where: Omit<Prisma.TrainingRunWhereInput, "status">, by: string): Promise<number> {
  const actor: AuditActor = { kind: "system", id: `fixture-${by.replace(/\W+/g, "-")}`, name: by, grants: [] };
  const open = await database.db.trainingRun.findMany({ where: { ...where, status: { in: ["queued", "running", "paused"] } }, select: { id: true } });
  let stopped = 0;
  for (const { id } of open) {
    try {
      await changeRunStatus(database, id, "stop", actor);
      stopped += 1;
    } catch (e) {
      if (!(e instanceof DomainError && e.code === "CONFLICT")) throw e;
    }
  }
  return stopped;
}
