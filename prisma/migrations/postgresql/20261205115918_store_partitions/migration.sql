-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "agents" TEXT,
ADD COLUMN     "phases" TEXT;

-- AlterTable
ALTER TABLE "store_attempts" ADD COLUMN     "served_by" TEXT;

-- AlterTable
ALTER TABLE "store_rollouts" ADD COLUMN     "agent" TEXT,
ADD COLUMN     "phase" TEXT;

-- CreateIndex
CREATE INDEX "store_rollouts_agent_queue_pos_idx" ON "store_rollouts"("agent", "queue_pos");

-- CreateIndex
CREATE INDEX "store_rollouts_phase_queue_pos_idx" ON "store_rollouts"("phase", "queue_pos");

-- Backfill: rollouts written before these columns existed get them from their metadata, as the store now
-- does on every write (short strings only), so an earlier gate rollout does not turn into a training one.
-- Row by row: metadata is TEXT, and a text jsonb refuses (\u0000) is left unassigned instead of failing.
DO $$
DECLARE r record; m jsonb;
BEGIN
  FOR r IN SELECT "rollout_id", "metadata" FROM "store_rollouts" WHERE "metadata" LIKE '%"lightgate.%' LOOP
    BEGIN
      m := r."metadata"::jsonb;
      UPDATE "store_rollouts" SET
        "agent" = CASE WHEN jsonb_typeof(m -> 'lightgate.agent') = 'string' AND length(m ->> 'lightgate.agent') BETWEEN 1 AND 64 THEN m ->> 'lightgate.agent' END,
        "phase" = CASE WHEN jsonb_typeof(m -> 'lightgate.phase') = 'string' AND length(m ->> 'lightgate.phase') BETWEEN 1 AND 64 THEN m ->> 'lightgate.phase' END
      WHERE "rollout_id" = r."rollout_id";
    EXCEPTION WHEN others THEN NULL;
    END;
  END LOOP;
END $$;
