-- AlterTable
ALTER TABLE "store_rollouts" ADD COLUMN "receipt_tag" TEXT;

-- CreateTable
CREATE TABLE "gate_datasets" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "case_count" INTEGER NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "gate_dataset_cases" (
    "dataset_id" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "case_id" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "protected" BOOLEAN NOT NULL,
    "expected" TEXT,

    PRIMARY KEY ("dataset_id", "case_id")
);

-- CreateTable
CREATE TABLE "receipt_declarations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent" TEXT NOT NULL,
    "declaration" TEXT NOT NULL,
    "declared_by_id" TEXT NOT NULL,
    "declared_at" DATETIME NOT NULL,
    "candidate_id" TEXT,
    "bound_at" DATETIME
);

-- CreateTable
CREATE TABLE "gate_run_tasks" (
    "rollout_id" TEXT NOT NULL PRIMARY KEY,
    "gate_run_id" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "side" TEXT,
    "case_id" TEXT NOT NULL,
    "resources_id" TEXT NOT NULL,
    "enqueued_at" DATETIME NOT NULL,
    "state" TEXT NOT NULL,
    "result" TEXT,
    "judged_at" DATETIME
);

-- CreateTable
CREATE TABLE "gate_verifications" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rollout_id" TEXT NOT NULL,
    "gate_run_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "matched" BOOLEAN NOT NULL,
    "confidence" REAL,
    "expected" TEXT,
    "observed" TEXT,
    "note" TEXT,
    "verifier_id" TEXT NOT NULL,
    "verifier_kind" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL
);

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
    "lease_until" DATETIME,
    "lease_owner" TEXT,
    "pins" TEXT,
    "progress" TEXT,
    "orchestration_ms" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_gate_runs" ("candidate_id", "error", "finished_at", "id", "kind", "link_digest", "requested_at", "requested_by_id", "started_at", "status") SELECT "candidate_id", "error", "finished_at", "id", "kind", "link_digest", "requested_at", "requested_by_id", "started_at", "status" FROM "gate_runs";
DROP TABLE "gate_runs";
ALTER TABLE "new_gate_runs" RENAME TO "gate_runs";
CREATE INDEX "gate_runs_status_requested_at_idx" ON "gate_runs"("status", "requested_at");
CREATE INDEX "gate_runs_candidate_id_requested_at_idx" ON "gate_runs"("candidate_id", "requested_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "gate_datasets_digest_key" ON "gate_datasets"("digest");

-- CreateIndex
CREATE INDEX "gate_datasets_kind_created_at_idx" ON "gate_datasets"("kind", "created_at");

-- CreateIndex
CREATE INDEX "gate_dataset_cases_dataset_id_ordinal_idx" ON "gate_dataset_cases"("dataset_id", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "receipt_declarations_candidate_id_key" ON "receipt_declarations"("candidate_id");

-- CreateIndex
CREATE INDEX "receipt_declarations_agent_declared_at_idx" ON "receipt_declarations"("agent", "declared_at");

-- CreateIndex
CREATE INDEX "gate_run_tasks_gate_run_id_phase_idx" ON "gate_run_tasks"("gate_run_id", "phase");

-- CreateIndex
CREATE UNIQUE INDEX "gate_verifications_rollout_id_key" ON "gate_verifications"("rollout_id");

-- CreateIndex
CREATE INDEX "gate_verifications_gate_run_id_idx" ON "gate_verifications"("gate_run_id");

-- CreateIndex
CREATE INDEX "store_rollouts_receipt_tag_idx" ON "store_rollouts"("receipt_tag");

-- Published exams and verification records are history: rows are only ever inserted.
CREATE TRIGGER "gate_datasets_no_update" BEFORE UPDATE ON "gate_datasets"
BEGIN SELECT RAISE(ABORT, 'gate_datasets is append-only: a published dataset is immutable'); END;
CREATE TRIGGER "gate_datasets_no_delete" BEFORE DELETE ON "gate_datasets"
BEGIN SELECT RAISE(ABORT, 'gate_datasets is append-only: a published dataset is immutable'); END;
CREATE TRIGGER "gate_dataset_cases_no_update" BEFORE UPDATE ON "gate_dataset_cases"
BEGIN SELECT RAISE(ABORT, 'gate_dataset_cases is append-only: a published dataset is immutable'); END;
CREATE TRIGGER "gate_dataset_cases_no_delete" BEFORE DELETE ON "gate_dataset_cases"
BEGIN SELECT RAISE(ABORT, 'gate_dataset_cases is append-only: a published dataset is immutable'); END;
CREATE TRIGGER "gate_verifications_no_update" BEFORE UPDATE ON "gate_verifications"
BEGIN SELECT RAISE(ABORT, 'gate_verifications is append-only: a verification record cannot be altered'); END;
CREATE TRIGGER "gate_verifications_no_delete" BEFORE DELETE ON "gate_verifications"
BEGIN SELECT RAISE(ABORT, 'gate_verifications is append-only: a verification record cannot be altered'); END;
