-- CreateTable
CREATE TABLE "training_sweeps" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "agent" TEXT NOT NULL,
    "family" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "config_count" INTEGER NOT NULL,
    "seeds_per_config" INTEGER NOT NULL,
    "created_by_id" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "training_sweep_runs" (
    "sweep_id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "config_index" INTEGER NOT NULL,
    "config_label" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "seed_index" INTEGER NOT NULL,

    PRIMARY KEY ("sweep_id", "run_id")
);

-- CreateIndex
CREATE INDEX "training_sweeps_created_at_idx" ON "training_sweeps"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "training_sweep_runs_run_id_key" ON "training_sweep_runs"("run_id");

-- CreateIndex
CREATE INDEX "training_sweep_runs_sweep_id_config_index_idx" ON "training_sweep_runs"("sweep_id", "config_index");
