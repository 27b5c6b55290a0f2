-- AlterTable
ALTER TABLE "gate_runs" ADD COLUMN     "deadline_at" TIMESTAMP(3),
ADD COLUMN     "lease_owner" TEXT,
ADD COLUMN     "lease_until" TIMESTAMP(3),
ADD COLUMN     "orchestration_ms" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "phase" TEXT NOT NULL DEFAULT 'queued',
ADD COLUMN     "pins" TEXT,
ADD COLUMN     "progress" TEXT;

-- AlterTable
ALTER TABLE "store_rollouts" ADD COLUMN     "receipt_tag" TEXT;

-- CreateTable
CREATE TABLE "gate_datasets" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "case_count" INTEGER NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gate_datasets_pkey" PRIMARY KEY ("id")
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

    CONSTRAINT "gate_dataset_cases_pkey" PRIMARY KEY ("dataset_id","case_id")
);

-- CreateTable
CREATE TABLE "receipt_declarations" (
    "id" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "declaration" TEXT NOT NULL,
    "declared_by_id" TEXT NOT NULL,
    "declared_at" TIMESTAMP(3) NOT NULL,
    "candidate_id" TEXT,
    "bound_at" TIMESTAMP(3),

    CONSTRAINT "receipt_declarations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gate_run_tasks" (
    "rollout_id" TEXT NOT NULL,
    "gate_run_id" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "side" TEXT,
    "case_id" TEXT NOT NULL,
    "resources_id" TEXT NOT NULL,
    "enqueued_at" TIMESTAMP(3) NOT NULL,
    "state" TEXT NOT NULL,
    "result" TEXT,
    "judged_at" TIMESTAMP(3),

    CONSTRAINT "gate_run_tasks_pkey" PRIMARY KEY ("rollout_id")
);

-- CreateTable
CREATE TABLE "gate_verifications" (
    "id" TEXT NOT NULL,
    "rollout_id" TEXT NOT NULL,
    "gate_run_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "matched" BOOLEAN NOT NULL,
    "confidence" DOUBLE PRECISION,
    "expected" TEXT,
    "observed" TEXT,
    "note" TEXT,
    "verifier_id" TEXT NOT NULL,
    "verifier_kind" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "gate_verifications_pkey" PRIMARY KEY ("id")
);

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

-- Published exams and verification records are history: rows are only ever inserted (the function is the
-- one the append_only_decisions migration created).
CREATE TRIGGER "gate_datasets_no_update_delete" BEFORE UPDATE OR DELETE ON "gate_datasets"
FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"('gate_datasets is append-only: a published dataset is immutable');
CREATE TRIGGER "gate_datasets_no_truncate" BEFORE TRUNCATE ON "gate_datasets"
FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"('gate_datasets is append-only: a published dataset is immutable');
CREATE TRIGGER "gate_dataset_cases_no_update_delete" BEFORE UPDATE OR DELETE ON "gate_dataset_cases"
FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"('gate_dataset_cases is append-only: a published dataset is immutable');
CREATE TRIGGER "gate_dataset_cases_no_truncate" BEFORE TRUNCATE ON "gate_dataset_cases"
FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"('gate_dataset_cases is append-only: a published dataset is immutable');
CREATE TRIGGER "gate_verifications_no_update_delete" BEFORE UPDATE OR DELETE ON "gate_verifications"
FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"('gate_verifications is append-only: a verification record cannot be altered');
CREATE TRIGGER "gate_verifications_no_truncate" BEFORE TRUNCATE ON "gate_verifications"
FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"('gate_verifications is append-only: a verification record cannot be altered');
