-- CreateTable
CREATE TABLE "Ticket" (
    "id" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "category" TEXT,
    "priority" TEXT,
    "assignee" TEXT NOT NULL,
    "queue" TEXT,
    "resolution" TEXT,
    "accountDeleted" BOOLEAN NOT NULL DEFAULT false,
    "answerIntent" TEXT,
    "answerArticle" TEXT,
    "answerAccountRef" TEXT,
    "events" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Ticket_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TicketEvent" (
    "id" TEXT NOT NULL,
    "ticketId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "tool" TEXT,
    "toolVersion" TEXT,
    "payload" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TicketEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Ticket_taskId_idx" ON "Ticket"("taskId");

-- CreateIndex
CREATE UNIQUE INDEX "TicketEvent_ticketId_seq_key" ON "TicketEvent"("ticketId", "seq");

-- AddForeignKey
ALTER TABLE "TicketEvent" ADD CONSTRAINT "TicketEvent_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE CASCADE ON UPDATE CASCADE;
