// The support desk's exam as published gate datasets: the held-out cases are the locked seeds its
// training runs have always been measured on (`lockHeldOutSet`'s "gate" label), the canary cases a second
// label of the same locked namespace, which training seeds can never start with. Each case's input is the
// episode input a desk runner executes (the distribution pinned by digest), its family the protected family
// or "general", its expected what the verifier checks against the re-read ticket.
import type { AuditActor } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { environments } from "@/server/environments/registry";
import { ENVIRONMENT_ID, expectedAsRecord, expectedTicket, sampleDeskTask } from "@/server/environments/support-desk";
import type { TaskDistribution } from "@/server/environments/types";
import { distributionOf, POLICY_RESOURCE_NAME, type EpisodeInput } from "@/server/runner/episode-input";
import { GATE_OPTIONS } from "@/server/runner/gate-rollout";
import { lockHeldOutSet } from "@/server/trainers/evaluate";
import { gateDatasetName } from "@/server/receipts/gate-datasets";
import { publishDataset, type DatasetRecord } from "@/server/gate-api/datasets";
import type { DatasetKind as GateDatasetKind, NormalisedCase } from "@/server/gate-api/datasets.schema";

/** One desk case as published (the gate API's normalised case, its input an episode input). */
export type GateCase = NormalisedCase & { input: EpisodeInput };
export type PublishedDataset = { datasetId: string; digest: DatasetRecord["digest"]; caseCount: number; created: boolean };

/** The held-out label training runs lock (server/training/context.ts) and the canary's own label. */
const LABELS: Record<GateDatasetKind, string> = { held_out: "gate", canary: "canary" };

/** What the verifier compares the re-read ticket with: the task it must belong to and the expected fields. */
export type DeskExpected = { task_id: string; ticket: Record<string, unknown> };

/** Cases of the desk (`support-desk`, or the text desk `support-desk-text`) the distribution belongs to. */
export function deskGateCases(distribution: TaskDistribution, kind: GateDatasetKind, count: number): GateCase[] {
  const desk = environments.get(distribution.environment);
  const set = lockHeldOutSet(desk, distribution, count, LABELS[kind]);
  const cases = set.seeds.map((seed): GateCase => {
    const task = sampleDeskTask(distribution, seed);
    const input: EpisodeInput = {
      kind: "lightgate.episode",
      environment: desk.id,
      distribution: distribution.version,
      distribution_digest: distribution.digest,
      task_seed: seed,
      options: { ...GATE_OPTIONS },
      policy_resource: POLICY_RESOURCE_NAME,
    };
    const expected: DeskExpected = { task_id: task.id, ticket: expectedAsRecord(expectedTicket(task)) };
    return { id: task.id, input, family: task.protectedFamily ?? "general", protected: task.protectedFamily !== null, expected: expected as GateCase["expected"] };
  });
  if (new Set(cases.map((c) => c.id)).size !== cases.length) throw new Error(`two ${kind} seeds of ${distribution.version} drew the same task id`);
  return cases;
}

export type DeskDatasetsInput = {
  agent: string;
  /** The desk: support-desk (default) or the text desk, support-desk-text. */
  environment?: string;
  distribution: string;
  heldOutCases?: number;
  canaryCases?: number;
  actor: AuditActor;
  /** Leave a kind alone when the newest dataset of its name is someone else's (an owner's exam stays in force). */
  yieldToOthers?: boolean;
};

/** Publishes (or finds, same content) the desk's held-out and canary datasets for an agent. */
export async function publishDeskGateDatasets(database: Database, input: DeskDatasetsInput): Promise<Record<GateDatasetKind, PublishedDataset>> {
  const distribution = distributionOf(environments.get(input.environment ?? ENVIRONMENT_ID), input.distribution);
  // Through the gate API's own publishing (content-addressed, audited), as a policy owner would.
  const publish = async (kind: GateDatasetKind, count: number): Promise<PublishedDataset> => {
    if (input.yieldToOthers) {
      const newest = await database.db.gateDataset.findFirst({ where: { name: gateDatasetName(input.agent, kind), kind }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
      if (newest && newest.createdById !== input.actor.id) return { datasetId: newest.id, digest: newest.digest as DatasetRecord["digest"], caseCount: newest.caseCount, created: false };
    }
    const { dataset, created } = await publishDataset(database, input.actor, { name: gateDatasetName(input.agent, kind), kind, cases: deskGateCases(distribution, kind, count) });
    return { datasetId: dataset.id, digest: dataset.digest, caseCount: dataset.caseCount, created };
  };
  return { held_out: await publish("held_out", input.heldOutCases ?? 60), canary: await publish("canary", input.canaryCases ?? 20) };
}
