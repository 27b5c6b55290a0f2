// Which published gate datasets a training run's stage 1 pins: the agent's policy owner publishes its exam
// under `<agent>/held-out` and `<agent>/canary` (the newest of each name is in force), and every candidate
// of a run is declared against them, so the gate asks runners for exactly those cases. An agent whose
// owner published none keeps the run's own locked seed set, which the gate cannot route to runners and
// reports as unresolvable.
import type { Db } from "@/server/db/client";
import type { Digest } from "@/server/digest";

export type GateDatasetPin = { id: string; digest: Digest; caseCount: number };

export const gateDatasetName = (agent: string, kind: "held_out" | "canary") => `${agent}/${kind === "held_out" ? "held-out" : "canary"}`;

async function newest(db: Db, agent: string, kind: "held_out" | "canary"): Promise<GateDatasetPin | null> {
  const row = await db.gateDataset.findFirst({ where: { name: gateDatasetName(agent, kind), kind }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return row ? { id: row.id, digest: row.digest as Digest, caseCount: row.caseCount } : null;
}

export async function publishedGateDatasets(db: Db, agent: string): Promise<{ heldOut: GateDatasetPin | null; canary: GateDatasetPin | null }> {
  return { heldOut: await newest(db, agent, "held_out"), canary: await newest(db, agent, "canary") };
}
