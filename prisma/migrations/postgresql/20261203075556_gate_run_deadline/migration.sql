-- AlterTable
ALTER TABLE "gate_runs" ADD COLUMN     "deadline_seconds" INTEGER NOT NULL DEFAULT 600;
