-- CreateTable
CREATE TABLE "auto_judge_settings" (
    "agent" TEXT NOT NULL,
    "resources_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "since_version" INTEGER NOT NULL,
    "changed_by_id" TEXT NOT NULL,
    "changed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "auto_judge_settings_pkey" PRIMARY KEY ("agent","resources_id")
);

-- CreateTable
CREATE TABLE "auto_judge_versions" (
    "agent" TEXT NOT NULL,
    "resources_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "seen_at" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL,
    "reason" TEXT,
    "coalesced_into" INTEGER,
    "parent_resources_id" TEXT,
    "parent_version" INTEGER,
    "parent_digest" TEXT,
    "receipt_id" TEXT,
    "candidate_id" TEXT,
    "gate_run_id" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "auto_judge_versions_pkey" PRIMARY KEY ("agent","resources_id","version")
);

-- CreateIndex
CREATE INDEX "auto_judge_settings_enabled_idx" ON "auto_judge_settings"("enabled");

-- CreateIndex
CREATE INDEX "auto_judge_versions_state_idx" ON "auto_judge_versions"("state");
