-- Judge every new version: the receipt declared ahead of the next version, so its training window opens when the
-- previous version appears (server/auto-judge/standing.ts).
ALTER TABLE "auto_judge_settings" ADD COLUMN "standing_receipt_id" TEXT;
ALTER TABLE "auto_judge_settings" ADD COLUMN "standing_basis" TEXT;
ALTER TABLE "auto_judge_settings" ADD COLUMN "standing_checked_at" DATETIME;
