// From stored evidence to a pinned training snapshot: rollouts' trajectories become demonstration
// records (with the rollout ids as lineage), the pipeline runs, and the result is stored content-addressed.
import type { Database } from "@/server/db/client";
import type { Trajectory } from "@/server/environments/trajectory";
import { DEFAULT_REWARD_WEIGHTS, weightedReward, type Environment } from "@/server/environments/types";
import { runPipeline, type PipelineStep } from "./pipeline";
import type { DatasetRecord, Demonstration } from "./records";
import { createSnapshot, loadSnapshot, type Lineage } from "./snapshot";
import { stratifiedSplit, type SplitShares } from "./splits";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEnvironment = Environment<any, any>;

/**
 * Complete trajectories as demonstrations: quality from the episode's outcome and reward (successful
 * episodes in [0.5, 1], others below), the domain from `domainOf` (default "store").
 */
export function demonstrationsFromTrajectories(trajectories: readonly Trajectory[], o: { source: string; domainOf?: (t: Trajectory) => string; recordedAt?: (t: Trajectory) => string | null }): Demonstration[] {
  return trajectories
    .filter((t) => t.complete)
    .map((t) => {
      const reward = t.steps.reduce((s, x) => s + weightedReward(x.components, DEFAULT_REWARD_WEIGHTS), 0);
      const success = t.outcomeReached === true && t.protected?.pass !== false;
      return {
        kind: "demonstration" as const,
        id: `demo-${t.rolloutId}-${t.attemptId}`,
        taskId: t.taskId ?? "",
        domain: o.domainOf?.(t) ?? "store",
        source: o.source,
        quality: (success ? 0.5 : 0) + 0.5 * Math.max(0, Math.min(1, (reward + 1) / 2)),
        steps: t.steps.map((s) => ({ features: s.features, key: s.key, action: s.action, components: { ...s.components } })),
        outcomeReached: t.outcomeReached,
        text: "",
        recordedAt: o.recordedAt?.(t) ?? null,
      };
    });
}

/** Runs the pipeline over the records and stores the result with the full lineage. */
export async function prepareSnapshot(
  database: Database,
  o: { name: string; records: readonly DatasetRecord[]; steps: readonly PipelineStep[]; environment?: AnyEnvironment; lineage?: Omit<Partial<Lineage>, "pipeline">; createdBy: string },
) {
  const { records, reports } = runPipeline(o.records, o.steps, o.environment);
  const rollouts = o.lineage?.rollouts ?? [...new Set(o.records.flatMap((r) => (r.kind === "demonstration" && r.id.startsWith("demo-ro-") ? [r.id.split("-").slice(1, 3).join("-")] : [])))];
  const feedback = o.lineage?.feedback ?? o.records.filter((r) => r.kind === "feedback").map((r) => r.id);
  const snapshot = await createSnapshot(database, { name: o.name, records, createdBy: o.createdBy, lineage: { ...o.lineage, rollouts, feedback, pipeline: reports } });
  return { ...snapshot, records: records.length, pipeline: reports };
}

/**
 * Cuts a stored snapshot into stratified train / validation / test snapshots (deterministic by seed),
 * each pinned by its own digest with the parent and the split step in its lineage.
 */
export async function splitSnapshot(database: Database, o: { digest: string; shares: SplitShares; seed: string; createdBy: string }) {
  const parent = await loadSnapshot(database, o.digest);
  const split = stratifiedSplit(parent.records, o.shares, o.seed);
  const out: Record<"train" | "validation" | "test", { id: string; digest: string; records: number }> = {} as never;
  for (const part of ["train", "validation", "test"] as const) {
    const ids = new Set(split[part]);
    const records = parent.records.filter((r) => ids.has(r.id));
    if (records.length === 0) throw new Error(`the ${part} share of ${parent.id} is empty: give it a larger share or more records`);
    const s = await createSnapshot(database, {
      name: `${parent.name}/${part}`,
      records,
      createdBy: o.createdBy,
      lineage: {
        ...parent.lineage,
        parentSnapshot: parent.digest,
        pipeline: [...parent.lineage.pipeline, { step: "split", params: { part, ...o.shares, seed: o.seed }, in: parent.records.length, out: records.length, details: {} }],
      },
    });
    out[part] = { id: s.id, digest: s.digest, records: records.length };
  }
  return out;
}
