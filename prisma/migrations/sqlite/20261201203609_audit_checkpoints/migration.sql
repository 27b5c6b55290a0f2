-- CreateTable
CREATE TABLE "AuditCheckpoint" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "fromSeq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "rowHashes" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "keyId" TEXT NOT NULL,
    "signature" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "AuditCheckpoint_fromSeq_key" ON "AuditCheckpoint"("fromSeq");

-- Checkpoints are history like the rows they vouch for: only ever inserted.
CREATE TRIGGER "AuditCheckpoint_no_update" BEFORE UPDATE ON "AuditCheckpoint"
BEGIN SELECT RAISE(ABORT, 'AuditCheckpoint is append-only'); END;
CREATE TRIGGER "AuditCheckpoint_no_delete" BEFORE DELETE ON "AuditCheckpoint"
BEGIN SELECT RAISE(ABORT, 'AuditCheckpoint is append-only'); END;
