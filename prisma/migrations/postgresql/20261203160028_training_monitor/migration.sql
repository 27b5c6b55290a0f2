-- AlterTable
ALTER TABLE "training_runs" ADD COLUMN     "name" TEXT,
ADD COLUMN     "pace_seconds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "restored_from_run_id" TEXT,
ADD COLUMN     "restored_from_update" INTEGER,
ADD COLUMN     "tags" TEXT NOT NULL DEFAULT '';
