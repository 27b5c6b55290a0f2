-- External trainings (server/training/external/) read a resources lineage's rollouts per version window.
CREATE INDEX "store_rollouts_resources_id_start_time_idx" ON "store_rollouts"("resources_id", "start_time");
