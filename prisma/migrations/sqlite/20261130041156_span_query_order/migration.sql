-- DropIndex
DROP INDEX "store_spans_rollout_id_attempt_id_sequence_id_idx";

-- DropIndex
DROP INDEX "store_spans_rollout_id_sequence_id_idx";

-- CreateIndex
CREATE INDEX "store_spans_rollout_id_sequence_id_start_time_span_id_attempt_id_idx" ON "store_spans"("rollout_id", "sequence_id", "start_time", "span_id", "attempt_id");
