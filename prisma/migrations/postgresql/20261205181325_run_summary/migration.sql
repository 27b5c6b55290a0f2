-- AlterTable
ALTER TABLE "training_runs" ADD COLUMN     "best_validation" DOUBLE PRECISION,
ADD COLUMN     "latest_validation" DOUBLE PRECISION,
ADD COLUMN     "retry_debt" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "runtime_seconds" INTEGER;

-- The summary of the runs recorded before it existed, from their metric rows (server/training/summary.ts keeps
-- it from now on, with the same definitions).
UPDATE "training_runs" r SET
  "latest_validation" = (SELECT m."held_out_reward" FROM "training_metrics" m WHERE m."run_id" = r."id" AND m."held_out_reward" IS NOT NULL ORDER BY m."update" DESC LIMIT 1),
  "best_validation" = (SELECT MAX(m."held_out_reward") FROM "training_metrics" m WHERE m."run_id" = r."id"),
  "retry_debt" = COALESCE((SELECT SUM(m."retries") FROM "training_metrics" m WHERE m."run_id" = r."id"), 0),
  "runtime_seconds" = CASE WHEN r."started_at" IS NULL THEN NULL ELSE GREATEST(0, ROUND(EXTRACT(EPOCH FROM (COALESCE(r."finished_at", (SELECT MAX(m."at") FROM "training_metrics" m WHERE m."run_id" = r."id"), r."started_at") - r."started_at"))))::integer END;

-- A run a person stopped was recorded as finished ("stopped by <name>"); it now has a status of its own.
UPDATE "training_runs" SET "status" = 'stopped' WHERE "status" = 'finished' AND "status_reason" LIKE 'stopped by %';
