-- CreateTable
CREATE TABLE "store_rollouts" (
    "rollout_id" TEXT NOT NULL PRIMARY KEY,
    "input" TEXT NOT NULL,
    "start_time" REAL NOT NULL,
    "end_time" REAL,
    "mode" TEXT,
    "resources_id" TEXT,
    "status" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "metadata" TEXT,
    "timeout_seconds" REAL,
    "unresponsive_seconds" REAL,
    "max_attempts" INTEGER NOT NULL DEFAULT 1,
    "retry_condition" TEXT NOT NULL DEFAULT '[]',
    "expected_attempts" INTEGER NOT NULL DEFAULT 1,
    "queue_pos" REAL,
    "requeue_cause" TEXT,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "latest_attempt_id" TEXT,
    "span_seq" INTEGER NOT NULL DEFAULT 0,
    "created_pos" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "store_attempts" (
    "rollout_id" TEXT NOT NULL,
    "attempt_id" TEXT NOT NULL,
    "sequence_id" INTEGER NOT NULL,
    "start_time" REAL NOT NULL,
    "end_time" REAL,
    "status" TEXT NOT NULL,
    "worker_id" TEXT,
    "last_heartbeat_time" REAL,
    "metadata" TEXT,
    "reason" TEXT NOT NULL,

    PRIMARY KEY ("rollout_id", "attempt_id"),
    CONSTRAINT "store_attempts_rollout_id_fkey" FOREIGN KEY ("rollout_id") REFERENCES "store_rollouts" ("rollout_id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "store_spans" (
    "rollout_id" TEXT NOT NULL,
    "attempt_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL,
    "sequence_id" INTEGER NOT NULL,
    "trace_id" TEXT NOT NULL,
    "parent_id" TEXT,
    "name" TEXT NOT NULL,
    "start_time" REAL,
    "end_time" REAL,
    "status_code" TEXT NOT NULL,
    "body" TEXT NOT NULL,

    PRIMARY KEY ("rollout_id", "attempt_id", "span_id")
);

-- CreateTable
CREATE TABLE "store_resources" (
    "resources_id" TEXT NOT NULL PRIMARY KEY,
    "create_time" REAL NOT NULL,
    "update_time" REAL NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "resources" TEXT NOT NULL,
    "latest_pos" REAL NOT NULL,
    "created_pos" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "store_resources_versions" (
    "resources_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "resources" TEXT NOT NULL,
    "created_at" REAL NOT NULL,

    PRIMARY KEY ("resources_id", "version"),
    CONSTRAINT "store_resources_versions_resources_id_fkey" FOREIGN KEY ("resources_id") REFERENCES "store_resources" ("resources_id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "store_workers" (
    "worker_id" TEXT NOT NULL PRIMARY KEY,
    "status" TEXT NOT NULL DEFAULT 'unknown',
    "heartbeat_stats" TEXT,
    "last_heartbeat_time" REAL,
    "last_dequeue_time" REAL,
    "last_busy_time" REAL,
    "last_idle_time" REAL,
    "current_rollout_id" TEXT,
    "current_attempt_id" TEXT,
    "created_pos" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by" TEXT,
    "last_used_at" DATETIME,
    "revoked_at" DATETIME
);

-- CreateTable
CREATE TABLE "retention_holds" (
    "rollout_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("rollout_id", "reason")
);

-- CreateIndex
CREATE INDEX "store_rollouts_queue_pos_idx" ON "store_rollouts"("queue_pos");

-- CreateIndex
CREATE INDEX "store_rollouts_status_end_time_idx" ON "store_rollouts"("status", "end_time");

-- CreateIndex
CREATE INDEX "store_rollouts_mode_status_idx" ON "store_rollouts"("mode", "status");

-- CreateIndex
CREATE INDEX "store_rollouts_created_pos_idx" ON "store_rollouts"("created_pos");

-- CreateIndex
CREATE INDEX "store_rollouts_start_time_idx" ON "store_rollouts"("start_time");

-- CreateIndex
CREATE INDEX "store_attempts_worker_id_idx" ON "store_attempts"("worker_id");

-- CreateIndex
CREATE UNIQUE INDEX "store_attempts_rollout_id_sequence_id_key" ON "store_attempts"("rollout_id", "sequence_id");

-- CreateIndex
CREATE INDEX "store_spans_rollout_id_sequence_id_idx" ON "store_spans"("rollout_id", "sequence_id");

-- CreateIndex
CREATE INDEX "store_spans_rollout_id_attempt_id_sequence_id_idx" ON "store_spans"("rollout_id", "attempt_id", "sequence_id");

-- CreateIndex
CREATE INDEX "store_resources_latest_pos_idx" ON "store_resources"("latest_pos");

-- CreateIndex
CREATE INDEX "store_resources_created_pos_idx" ON "store_resources"("created_pos");

-- CreateIndex
CREATE INDEX "store_resources_versions_digest_idx" ON "store_resources_versions"("digest");

-- CreateIndex
CREATE INDEX "store_workers_status_idx" ON "store_workers"("status");

-- CreateIndex
CREATE INDEX "store_workers_created_pos_idx" ON "store_workers"("created_pos");

-- CreateIndex
CREATE INDEX "api_keys_role_idx" ON "api_keys"("role");
