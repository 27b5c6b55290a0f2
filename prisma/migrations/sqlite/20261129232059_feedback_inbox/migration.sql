-- CreateTable
CREATE TABLE "FeedbackEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "interactionId" TEXT NOT NULL,
    "raterId" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "FeedbackEvent_interactionId_idx" ON "FeedbackEvent"("interactionId");

-- CreateIndex
CREATE INDEX "FeedbackEvent_receivedAt_idx" ON "FeedbackEvent"("receivedAt");
