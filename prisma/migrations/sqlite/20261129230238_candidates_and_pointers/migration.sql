-- CreateTable
CREATE TABLE "candidates" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent" TEXT NOT NULL,
    "resources_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "parent_resources_id" TEXT NOT NULL,
    "parent_version" INTEGER NOT NULL,
    "parent_digest" TEXT NOT NULL,
    "training_run_id" TEXT,
    "algorithm" TEXT NOT NULL,
    "stage1" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "pointers" (
    "agent" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "resources_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "candidate_id" TEXT,
    "receipt_digest" TEXT,
    "moved_by_id" TEXT NOT NULL,
    "moved_at" DATETIME NOT NULL,

    PRIMARY KEY ("agent", "kind")
);

-- CreateTable
CREATE TABLE "pointer_moves" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agent" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "from_resources_id" TEXT,
    "from_version" INTEGER,
    "from_digest" TEXT,
    "to_resources_id" TEXT NOT NULL,
    "to_version" INTEGER NOT NULL,
    "to_digest" TEXT NOT NULL,
    "candidate_id" TEXT,
    "receipt_digest" TEXT,
    "actor_id" TEXT NOT NULL,
    "actor_kind" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "candidates_agent_created_at_idx" ON "candidates"("agent", "created_at");

-- CreateIndex
CREATE INDEX "candidates_training_run_id_idx" ON "candidates"("training_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "candidates_resources_id_version_key" ON "candidates"("resources_id", "version");

-- CreateIndex
CREATE INDEX "pointer_moves_agent_kind_at_idx" ON "pointer_moves"("agent", "kind", "at");
