-- CreateTable
CREATE TABLE "receipt_links" (
    "candidate_id" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "prev_digest" TEXT,
    "content_digest" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "sealed_at" TEXT NOT NULL,

    CONSTRAINT "receipt_links_pkey" PRIMARY KEY ("candidate_id","index")
);

-- CreateTable
CREATE TABLE "receipt_heads" (
    "candidate_id" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "receipt_heads_pkey" PRIMARY KEY ("candidate_id")
);

-- CreateTable
CREATE TABLE "registry_entries" (
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "registry_entries_pkey" PRIMARY KEY ("kind","name","agent","seq")
);

-- CreateTable
CREATE TABLE "gate_runs" (
    "id" TEXT NOT NULL,
    "candidate_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "requested_by_id" TEXT NOT NULL,
    "requested_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "finished_at" TIMESTAMP(3),
    "link_digest" TEXT,
    "error" TEXT,

    CONSTRAINT "gate_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gate_check_results" (
    "id" TEXT NOT NULL,
    "candidate_id" TEXT NOT NULL,
    "head_digest" TEXT NOT NULL,
    "versions_key" TEXT NOT NULL,
    "check" INTEGER NOT NULL,
    "scope" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "sentence" TEXT NOT NULL,
    "evidence" TEXT NOT NULL,
    "versions" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "evaluated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gate_check_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rollout_rollups" (
    "rollout_id" TEXT NOT NULL,
    "resources_id" TEXT,
    "source_key" TEXT NOT NULL,
    "rollup" TEXT NOT NULL,
    "start_time" DOUBLE PRECISION NOT NULL,
    "computed_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rollout_rollups_pkey" PRIMARY KEY ("rollout_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "receipt_links_digest_key" ON "receipt_links"("digest");

-- CreateIndex
CREATE UNIQUE INDEX "receipt_links_prev_digest_key" ON "receipt_links"("prev_digest");

-- CreateIndex
CREATE INDEX "receipt_links_kind_idx" ON "receipt_links"("kind");

-- CreateIndex
CREATE INDEX "registry_entries_agent_kind_idx" ON "registry_entries"("agent", "kind");

-- CreateIndex
CREATE INDEX "registry_entries_digest_idx" ON "registry_entries"("digest");

-- CreateIndex
CREATE UNIQUE INDEX "registry_entries_kind_name_agent_version_key" ON "registry_entries"("kind", "name", "agent", "version");

-- CreateIndex
CREATE INDEX "gate_runs_status_requested_at_idx" ON "gate_runs"("status", "requested_at");

-- CreateIndex
CREATE INDEX "gate_runs_candidate_id_requested_at_idx" ON "gate_runs"("candidate_id", "requested_at");

-- CreateIndex
CREATE INDEX "gate_check_results_candidate_id_evaluated_at_idx" ON "gate_check_results"("candidate_id", "evaluated_at");

-- CreateIndex
CREATE INDEX "gate_check_results_head_digest_versions_key_idx" ON "gate_check_results"("head_digest", "versions_key");

-- CreateIndex
CREATE INDEX "rollout_rollups_resources_id_start_time_idx" ON "rollout_rollups"("resources_id", "start_time");

-- Append-only: a sealed receipt link or a published registry version is never updated or deleted.
CREATE FUNCTION "receipt_links_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'receipt_links is append-only: a sealed stage cannot be altered';
END;
$$;
CREATE TRIGGER "receipt_links_no_update_delete" BEFORE UPDATE OR DELETE ON "receipt_links"
FOR EACH ROW EXECUTE FUNCTION "receipt_links_append_only"();
CREATE TRIGGER "receipt_links_no_truncate" BEFORE TRUNCATE ON "receipt_links"
FOR EACH STATEMENT EXECUTE FUNCTION "receipt_links_append_only"();
CREATE FUNCTION "registry_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'registry_entries is append-only: publish a new version instead';
END;
$$;
CREATE TRIGGER "registry_entries_no_update_delete" BEFORE UPDATE OR DELETE ON "registry_entries"
FOR EACH ROW EXECUTE FUNCTION "registry_entries_append_only"();
CREATE TRIGGER "registry_entries_no_truncate" BEFORE TRUNCATE ON "registry_entries"
FOR EACH STATEMENT EXECUTE FUNCTION "registry_entries_append_only"();
