-- CreateTable
CREATE TABLE "approval_decisions" (
    "id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "candidate_id" TEXT,
    "step" TEXT,
    "pointer_kind" TEXT,
    "from_digest" TEXT,
    "to_digest" TEXT,
    "to_resources_id" TEXT,
    "receipt_digest" TEXT,
    "link_digest" TEXT,
    "actor_id" TEXT NOT NULL,
    "actor_kind" TEXT NOT NULL,
    "actor_name" TEXT NOT NULL,
    "comment" TEXT,
    "refusal" TEXT,
    "payload" TEXT,
    "signature" TEXT,
    "envelope" TEXT,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "approval_decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "release_bot_policies" (
    "bot_id" TEXT NOT NULL,
    "agents" TEXT NOT NULL,
    "verdicts" TEXT NOT NULL,
    "steps" TEXT NOT NULL,
    "max_canary_tasks" INTEGER NOT NULL,
    "max_canary_wall_seconds" INTEGER NOT NULL,
    "max_canary_cost_usd" DOUBLE PRECISION NOT NULL,
    "updated_by_id" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "release_bot_policies_pkey" PRIMARY KEY ("bot_id")
);

-- CreateIndex
CREATE INDEX "approval_decisions_agent_at_idx" ON "approval_decisions"("agent", "at");

-- CreateIndex
CREATE INDEX "approval_decisions_candidate_id_at_idx" ON "approval_decisions"("candidate_id", "at");
