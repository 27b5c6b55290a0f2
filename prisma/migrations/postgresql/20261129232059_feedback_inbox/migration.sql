-- CreateTable
CREATE TABLE "FeedbackEvent" (
    "id" TEXT NOT NULL,
    "interactionId" TEXT NOT NULL,
    "raterId" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FeedbackEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FeedbackEvent_interactionId_idx" ON "FeedbackEvent"("interactionId");

-- CreateIndex
CREATE INDEX "FeedbackEvent_receivedAt_idx" ON "FeedbackEvent"("receivedAt");
