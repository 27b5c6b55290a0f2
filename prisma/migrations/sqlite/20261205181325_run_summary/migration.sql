-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_training_runs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent" TEXT NOT NULL,
    "name" TEXT,
    "tags" TEXT NOT NULL DEFAULT '',
    "restored_from_run_id" TEXT,
    "restored_from_update" INTEGER,
    "pace_seconds" INTEGER NOT NULL DEFAULT 0,
    "family" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "distribution" TEXT NOT NULL,
    "parent_resources_id" TEXT NOT NULL,
    "parent_version" INTEGER NOT NULL,
    "parent_digest" TEXT NOT NULL,
    "data_snapshot_id" TEXT,
    "data_snapshot_digest" TEXT,
    "held_out_cases" INTEGER NOT NULL,
    "parent_held_out_reward" REAL,
    "retry_budget" INTEGER NOT NULL,
    "code_revision" TEXT NOT NULL,
    "continual" BOOLEAN NOT NULL DEFAULT false,
    "candidate_every" INTEGER NOT NULL,
    "checkpoint_every" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "status_reason" TEXT,
    "updates_done" INTEGER NOT NULL DEFAULT 0,
    "updates_total" INTEGER NOT NULL,
    "episodes_done" INTEGER NOT NULL DEFAULT 0,
    "latest_validation" REAL,
    "best_validation" REAL,
    "retry_debt" INTEGER NOT NULL DEFAULT 0,
    "runtime_seconds" INTEGER,
    "stage1_facts" TEXT,
    "worker_id" TEXT,
    "lease_until" DATETIME,
    "started_by_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" DATETIME,
    "finished_at" DATETIME,
    "updated_at" DATETIME NOT NULL
);
INSERT INTO "new_training_runs" ("agent", "candidate_every", "checkpoint_every", "code_revision", "config", "continual", "created_at", "data_snapshot_digest", "data_snapshot_id", "distribution", "environment", "episodes_done", "family", "finished_at", "held_out_cases", "id", "lease_until", "name", "pace_seconds", "parent_digest", "parent_held_out_reward", "parent_resources_id", "parent_version", "restored_from_run_id", "restored_from_update", "retry_budget", "seed", "stage1_facts", "started_at", "started_by_id", "status", "status_reason", "tags", "updated_at", "updates_done", "updates_total", "worker_id") SELECT "agent", "candidate_every", "checkpoint_every", "code_revision", "config", "continual", "created_at", "data_snapshot_digest", "data_snapshot_id", "distribution", "environment", "episodes_done", "family", "finished_at", "held_out_cases", "id", "lease_until", "name", "pace_seconds", "parent_digest", "parent_held_out_reward", "parent_resources_id", "parent_version", "restored_from_run_id", "restored_from_update", "retry_budget", "seed", "stage1_facts", "started_at", "started_by_id", "status", "status_reason", "tags", "updated_at", "updates_done", "updates_total", "worker_id" FROM "training_runs";
DROP TABLE "training_runs";
ALTER TABLE "new_training_runs" RENAME TO "training_runs";
CREATE INDEX "training_runs_status_lease_until_idx" ON "training_runs"("status", "lease_until");
CREATE INDEX "training_runs_agent_created_at_idx" ON "training_runs"("agent", "created_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- The summary of the runs recorded before it existed, from their metric rows (server/training/summary.ts keeps
-- it from now on, with the same definitions).
UPDATE "training_runs" SET
  "latest_validation" = (SELECT m."held_out_reward" FROM "training_metrics" m WHERE m."run_id" = "training_runs"."id" AND m."held_out_reward" IS NOT NULL ORDER BY m."update" DESC LIMIT 1),
  "best_validation" = (SELECT MAX(m."held_out_reward") FROM "training_metrics" m WHERE m."run_id" = "training_runs"."id"),
  "retry_debt" = COALESCE((SELECT SUM(m."retries") FROM "training_metrics" m WHERE m."run_id" = "training_runs"."id"), 0),
  "runtime_seconds" = CASE WHEN "started_at" IS NULL THEN NULL ELSE MAX(0, CAST(ROUND((julianday(COALESCE("finished_at", (SELECT MAX(m."at") FROM "training_metrics" m WHERE m."run_id" = "training_runs"."id"), "started_at")) - julianday("started_at")) * 86400) AS INTEGER)) END;

-- A run a person stopped was recorded as finished ("stopped by <name>"); it now has a status of its own.
UPDATE "training_runs" SET "status" = 'stopped' WHERE "status" = 'finished' AND "status_reason" LIKE 'stopped by %';
