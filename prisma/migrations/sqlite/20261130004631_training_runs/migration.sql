-- CreateTable
CREATE TABLE "training_runs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent" TEXT NOT NULL,
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
    "stage1_facts" TEXT,
    "worker_id" TEXT,
    "lease_until" DATETIME,
    "started_by_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" DATETIME,
    "finished_at" DATETIME,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "training_checkpoints" (
    "run_id" TEXT NOT NULL,
    "update" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("run_id", "update")
);

-- CreateTable
CREATE TABLE "training_metrics" (
    "run_id" TEXT NOT NULL,
    "update" INTEGER NOT NULL,
    "episodes" INTEGER NOT NULL,
    "mean_reward" REAL,
    "held_out_reward" REAL,
    "coverage" REAL,
    "retries" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "figures" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("run_id", "update")
);

-- CreateTable
CREATE TABLE "training_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "run_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "training_runs_status_lease_until_idx" ON "training_runs"("status", "lease_until");

-- CreateIndex
CREATE INDEX "training_runs_agent_created_at_idx" ON "training_runs"("agent", "created_at");

-- CreateIndex
CREATE INDEX "training_events_run_id_at_idx" ON "training_events"("run_id", "at");
