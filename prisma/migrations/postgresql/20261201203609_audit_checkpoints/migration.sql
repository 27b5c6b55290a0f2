-- CreateTable
CREATE TABLE "AuditCheckpoint" (
    "seq" INTEGER NOT NULL,
    "fromSeq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "rowHashes" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "keyId" TEXT NOT NULL,
    "signature" TEXT NOT NULL,

    CONSTRAINT "AuditCheckpoint_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "AuditCheckpoint_fromSeq_key" ON "AuditCheckpoint"("fromSeq");

-- Checkpoints are history like the rows they vouch for: only ever inserted (the shared refusal function of
-- 20261130052500_append_only_decisions, with this table's message).
CREATE TRIGGER "AuditCheckpoint_no_update_delete" BEFORE UPDATE OR DELETE ON "AuditCheckpoint"
FOR EACH ROW EXECUTE FUNCTION "refuse_append_only_change"('AuditCheckpoint is append-only');
CREATE TRIGGER "AuditCheckpoint_no_truncate" BEFORE TRUNCATE ON "AuditCheckpoint"
FOR EACH STATEMENT EXECUTE FUNCTION "refuse_append_only_change"('AuditCheckpoint is append-only');
