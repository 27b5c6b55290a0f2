-- CreateTable
CREATE TABLE "DatasetSnapshot" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "digest" TEXT NOT NULL,
    "recordCount" INTEGER NOT NULL,
    "kinds" TEXT NOT NULL,
    "parentDigest" TEXT,
    "lineage" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DatasetSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DatasetSnapshotRecord" (
    "snapshotId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "recordId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" TEXT NOT NULL,

    CONSTRAINT "DatasetSnapshotRecord_pkey" PRIMARY KEY ("snapshotId","ordinal")
);

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSnapshot_digest_key" ON "DatasetSnapshot"("digest");

-- CreateIndex
CREATE INDEX "DatasetSnapshot_parentDigest_idx" ON "DatasetSnapshot"("parentDigest");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSnapshot_name_version_key" ON "DatasetSnapshot"("name", "version");

-- CreateIndex
CREATE UNIQUE INDEX "DatasetSnapshotRecord_snapshotId_recordId_key" ON "DatasetSnapshotRecord"("snapshotId", "recordId");

-- AddForeignKey
ALTER TABLE "DatasetSnapshotRecord" ADD CONSTRAINT "DatasetSnapshotRecord_snapshotId_fkey" FOREIGN KEY ("snapshotId") REFERENCES "DatasetSnapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;
