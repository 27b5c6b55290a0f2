-- CreateTable
CREATE TABLE "EvaluationJob" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "progressNote" TEXT NOT NULL DEFAULT '',
    "request" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,
    "createdById" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EvaluationJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "EvaluationJob_kind_createdAt_idx" ON "EvaluationJob"("kind", "createdAt");

-- CreateIndex
CREATE INDEX "EvaluationJob_createdAt_idx" ON "EvaluationJob"("createdAt");
