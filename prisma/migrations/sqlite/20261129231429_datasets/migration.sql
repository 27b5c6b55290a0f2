-- CreateTable
CREATE TABLE "DatasetSnapshot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "recordCount" INTEGER NOT NULL,
    "kinds" TEXT NOT NULL,
    "parentDigest" TEXT,
    "lineage" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "DatasetSnapshotRecord" (
    "snapshotId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "recordId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,

    PRIMARY KEY ("snapshotId", "ordinal"),
    CONSTRAINT "DatasetSnapshotRecord_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "DatasetSnapshot" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSnapshot_digest_key" ON "DatasetSnapshot"("digest");

-- CreateIndex
CREATE INDEX "DatasetSnapshot_parentDigest_idx" ON "DatasetSnapshot"("parentDigest");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSnapshot_name_version_key" ON "DatasetSnapshot"("name", "version");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSnapshotRecord_snapshotId_recordId_key" ON "DatasetSnapshotRecord"("snapshotId", "recordId");
