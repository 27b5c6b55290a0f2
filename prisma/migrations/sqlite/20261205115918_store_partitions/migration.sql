-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN "agents" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "phases" TEXT;

-- AlterTable
ALTER TABLE "store_attempts" ADD COLUMN "served_by" TEXT;

-- AlterTable
ALTER TABLE "store_rollouts" ADD COLUMN "agent" TEXT;
ALTER TABLE "store_rollouts" ADD COLUMN "phase" TEXT;

-- CreateIndex
CREATE INDEX "store_rollouts_agent_queue_pos_idx" ON "store_rollouts"("agent", "queue_pos");

-- CreateIndex
CREATE INDEX "store_rollouts_phase_queue_pos_idx" ON "store_rollouts"("phase", "queue_pos");

-- Backfill: rollouts written before these columns existed get them from their metadata, as the store now
-- does on every write (short strings only), so an earlier gate rollout does not turn into a training one.
UPDATE "store_rollouts" SET
  "agent" = CASE WHEN json_type("metadata", '$."lightgate.agent"') = 'text' AND length(json_extract("metadata", '$."lightgate.agent"')) BETWEEN 1 AND 64 THEN json_extract("metadata", '$."lightgate.agent"') END,
  "phase" = CASE WHEN json_type("metadata", '$."lightgate.phase"') = 'text' AND length(json_extract("metadata", '$."lightgate.phase"')) BETWEEN 1 AND 64 THEN json_extract("metadata", '$."lightgate.phase"') END
WHERE "metadata" LIKE '%"lightgate.%' AND json_valid("metadata");
