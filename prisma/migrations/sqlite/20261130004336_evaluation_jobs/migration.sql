-- CreateTable
CREATE TABLE "EvaluationJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "progress" REAL NOT NULL DEFAULT 0,
    "progressNote" TEXT NOT NULL DEFAULT '',
    "request" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "createdById" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "EvaluationJob_kind_createdAt_idx" ON "EvaluationJob"("kind", "createdAt");

-- CreateIndex
CREATE INDEX "EvaluationJob_createdAt_idx" ON "EvaluationJob"("createdAt");
