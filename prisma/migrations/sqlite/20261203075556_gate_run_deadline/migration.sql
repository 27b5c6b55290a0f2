-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_gate_runs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "candidate_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requested_by_id" TEXT NOT NULL,
    "requested_at" DATETIME NOT NULL,
    "started_at" DATETIME,
    "finished_at" DATETIME,
    "link_digest" TEXT,
    "error" TEXT,
    "phase" TEXT NOT NULL DEFAULT 'queued',
    "deadline_at" DATETIME,
    "deadline_seconds" INTEGER NOT NULL DEFAULT 600,
    "lease_until" DATETIME,
    "lease_owner" TEXT,
    "pins" TEXT,
    "progress" TEXT,
    "orchestration_ms" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_gate_runs" ("candidate_id", "deadline_at", "error", "finished_at", "id", "kind", "lease_owner", "lease_until", "link_digest", "orchestration_ms", "phase", "pins", "progress", "requested_at", "requested_by_id", "started_at", "status") SELECT "candidate_id", "deadline_at", "error", "finished_at", "id", "kind", "lease_owner", "lease_until", "link_digest", "orchestration_ms", "phase", "pins", "progress", "requested_at", "requested_by_id", "started_at", "status" FROM "gate_runs";
DROP TABLE "gate_runs";
ALTER TABLE "new_gate_runs" RENAME TO "gate_runs";
CREATE INDEX "gate_runs_status_requested_at_idx" ON "gate_runs"("status", "requested_at");
CREATE INDEX "gate_runs_candidate_id_requested_at_idx" ON "gate_runs"("candidate_id", "requested_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
