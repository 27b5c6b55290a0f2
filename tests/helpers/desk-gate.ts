// The support desk as a client of the gate's runner path, in one test world: the production listener (store +
// gate API) on a fresh database, the desk's registry and published exam for an agent, a candidate and its
// exact parent in the store, and — while a gate run is driven — desk runners, a verifier and the gate's
// orchestrator loop, each talking to the server over HTTP as their own processes would.
import type { Dialect } from "@/server/db/config";
import { digestOf, type Digest } from "@/server/digest";
import { registerCandidate } from "@/server/candidates/register";
import { publishDeskGateDatasets } from "@/server/desk/gate-datasets";
import { DESK_EVALUATOR, publishDeskRegistry } from "@/server/desk/registry";
import { createSupportDesk } from "@/server/environments/support-desk";
import { TicketDb } from "@/server/environments/support-desk/ticket-db";
import type { Stage1 } from "@/server/gate/receipt/stage1";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { orchestrateGates, requestGateRun } from "@/server/receipts/gate-queue";
import { currentVersions } from "@/server/receipts/versions";
import { Runner } from "@/server/runner/runner";
import { expectedEvidenceFor } from "@/server/trainers/stage1";
import { toPolicyResource } from "@/server/trainers/policy-resource";
import type { Policy } from "@/server/trainers/policy";
import type { JsonObject } from "@/server/store/types";
import { Verifier } from "@/server/verifier/verifier";
import { SYSTEM } from "./auth";
import { gateWorld, type GateWorld } from "./gate-api";
import { candidatePolicy, parentPolicy } from "./gate-rollouts";

const desk = createSupportDesk();
export const DESK_AGENT = "helpdesk-test";
const ALGORITHM = { kind: "service" as const, id: "svc-desk-trainer", name: "desk trainer", grants: [{ role: "algorithm" as const, agent: null }] };

export type DeskGateWorld = GateWorld & { datasets: { heldOut: string; canary: string } };

export async function deskGateWorld(dialect: Dialect, label: string, sizes = { heldOut: 20, canary: 6 }): Promise<DeskGateWorld> {
  const world = await gateWorld(dialect, label);
  await publishDeskRegistry(world.database, { agent: DESK_AGENT, distribution: "v2", actor: SYSTEM });
  const published = await publishDeskGateDatasets(world.database, { agent: DESK_AGENT, distribution: "v2", heldOutCases: sizes.heldOut, canaryCases: sizes.canary, actor: SYSTEM });
  return { ...world, datasets: { heldOut: published.held_out.datasetId, canary: published.canary.datasetId } };
}

async function putPolicy(world: GateWorld, id: string, policy: Policy) {
  const put = await world.store.updateResources(id, { policy: toPolicyResource(policy) as unknown as JsonObject });
  const v = (await world.store.resourcesVersion(id, put.version))!;
  return { resourceId: id, version: v.version, digest: v.digest as Digest };
}

/** Registers a desk candidate (trained on demonstrations) against the untrained exact parent, with the desk's pins. */
export async function deskCandidate(world: DeskGateWorld, opts: { name: string; boundary?: Partial<Stage1["expectedEvidence"]["canaryBoundary"]>; candidate?: Policy } = { name: "c" }) {
  const parent = await putPolicy(world, `rs-${opts.name}-base`, parentPolicy());
  const candidate = await putPolicy(world, `rs-${opts.name}-tuned`, opts.candidate ?? (await candidatePolicy()));
  await adoptRootDefault(world.database, { agent: DESK_AGENT, target: parent, actor: SYSTEM, reason: "test lineage root" }).catch(() => {});
  const db = world.database.db;
  const datasetPin = async (id: string) => {
    const d = await db.gateDataset.findUniqueOrThrow({ where: { id } });
    return { id: d.id, digest: d.digest as Digest, caseCount: d.caseCount };
  };
  const evaluator = await db.registryEntry.findFirstOrThrow({ where: { kind: "evaluator", name: DESK_EVALUATOR.id, agent: DESK_AGENT } });
  const expected = expectedEvidenceFor(desk, ["reward"], 0);
  const training = { id: "ds-desk-train", digest: digestOf({ train: opts.name }) as Digest };
  await db.datasetSnapshot.upsert({ where: { id: training.id }, create: { id: training.id, name: "train", version: 1, digest: training.digest, recordCount: 0, kinds: "task", lineage: "{}", createdBy: "test" }, update: {} });
  const stage1: Stage1 = {
    agent: DESK_AGENT,
    candidate,
    parent,
    data: { training, heldOut: await datasetPin(world.datasets.heldOut), canary: await datasetPin(world.datasets.canary) },
    evaluator: { id: evaluator.name, version: evaluator.version, digest: evaluator.digest as Digest },
    algorithm: { name: "supervised", config: { updates: 10 } },
    codeRevision: "0a1b2c3d4e5f",
    scope: { tasks: ["support-desk/v2"], tools: expected.canaryBoundary.allowedTools, destinations: ["support-desk:tickets"] },
    approvers: { canary: { actorIds: [], roles: ["canary_approver"] }, default: { actorIds: [], roles: ["release_approver"] } },
    expectedEvidence: { ...expected, canaryBoundary: { ...expected.canaryBoundary, ...opts.boundary } },
    versions: await currentVersions(db, DESK_AGENT),
    declaredBy: ALGORITHM.id,
    declaredAt: new Date().toISOString(),
  };
  const registered = await registerCandidate(world.database, { agent: DESK_AGENT, resource: { resourcesId: candidate.resourceId, version: candidate.version, digest: candidate.digest }, stage1, actor: ALGORITHM });
  return { candidateId: registered.id, parent, candidate };
}

export type Drive = { runners?: number; verifier?: boolean; timeoutMs?: number };

/** Requests a gate run and drives it to the end with desk runners, a verifier and the orchestrator loop. */
export async function driveDeskGate(world: DeskGateWorld, candidateId: string, deadlineSeconds: number, opts: Drive = {}) {
  const run = await requestGateRun(world.database, { candidateId, actor: ALGORITHM, deadlineSeconds });
  const stop = new AbortController();
  const tickets = new TicketDb(world.database.url);
  const runners = Array.from({ length: opts.runners ?? 2 }, (_, i) => new Runner({ url: world.url, apiKey: world.keys.get("runner")!, workerId: `desk-runner-${i}`, destinations: tickets.resolve, pollMs: 20 }));
  const verifier = new Verifier({ url: world.url, apiKey: world.keys.get("verifier")!, destinations: tickets.resolve, pollMs: 50 });
  const loops = [
    ...runners.map((r) => r.run(stop.signal)),
    ...(opts.verifier === false ? [] : [verifier.run(stop.signal)]),
    orchestrateGates(world.database, stop.signal, { intervalMs: 50, owner: "test-orchestrator" }),
  ];
  const until = Date.now() + (opts.timeoutMs ?? 120_000);
  try {
    for (;;) {
      const row = await world.database.db.gateRun.findUniqueOrThrow({ where: { id: run.id } });
      if (row.status === "done" || row.status === "failed") return row;
      if (Date.now() > until) throw new Error(`gate run ${run.id} still ${row.phase} after ${opts.timeoutMs ?? 120_000} ms: ${row.progress}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    stop.abort();
    await Promise.allSettled(loops);
    await tickets.close();
  }
}
