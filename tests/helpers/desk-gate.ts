// The support desk as a client of the gate's runner path, in one test world: the production listener (store +
// gate API) on a fresh database, the desk's registry and published exam for an agent, a candidate and its
// exact parent in the store, and — while a gate run is driven — desk runners, a verifier and the gate's
// orchestrator loop, each talking to the server over HTTP as their own processes would.
import type { Dialect } from "@/server/db/config";
import { publishDeskGateDatasets } from "@/server/desk/gate-datasets";
import { publishDeskRegistry } from "@/server/desk/registry";
import { TicketDb } from "@/server/environments/support-desk/ticket-db";
import { orchestrateGates, requestGateRun } from "@/server/receipts/gate-queue";
import { Runner } from "@/server/runner/runner";
import { Verifier } from "@/server/verifier/verifier";
import { SYSTEM } from "./auth";
import { DESK_ALGORITHM, registerDeskCandidate, type DeskActor, type DeskCandidateOptions } from "./desk-candidate";
import { gateWorld, type GateWorld } from "./gate-api";
import { candidatePolicy, parentPolicy } from "./gate-rollouts";
import type { EpisodeInput } from "@/server/runner/episode-input";

export const DESK_AGENT = "helpdesk-test";

export type DeskGateWorld = GateWorld & { datasets: { heldOut: string; canary: string } };

/** Which desk the world's agent is on: the standard one at v2 unless given (the text desk: support-desk-text). */
export type DeskSpec = { agent: string; environment: string; distribution: string };
export const STANDARD_DESK: DeskSpec = { agent: DESK_AGENT, environment: "support-desk", distribution: "v2" };

export async function deskGateWorld(dialect: Dialect, label: string, sizes = { heldOut: 20, canary: 6 }, desk: DeskSpec = STANDARD_DESK): Promise<DeskGateWorld> {
  const world = await gateWorld(dialect, label);
  await publishDeskRegistry(world.database, { ...desk, actor: SYSTEM });
  const published = await publishDeskGateDatasets(world.database, { ...desk, heldOutCases: sizes.heldOut, canaryCases: sizes.canary, actor: SYSTEM });
  return { ...world, datasets: { heldOut: published.held_out.datasetId, canary: published.canary.datasetId } };
}

/** Registers a desk candidate (trained on demonstrations) against the untrained exact parent, with the desk's pins. */
export async function deskCandidate(world: DeskGateWorld, opts: { name: string; boundary?: DeskCandidateOptions["boundary"]; candidate?: DeskActor; parent?: DeskActor } = { name: "c" }) {
  return registerDeskCandidate({ ...world, agent: DESK_AGENT }, { name: opts.name, boundary: opts.boundary, parent: opts.parent ?? parentPolicy(), candidate: opts.candidate ?? (await candidatePolicy()) });
}

/**
 * Training-side evidence for a candidate, as a training run leaves it: `n` episodes on its resources served by
 * desk runners (spans, rewards, attempts), finished before the gate seals stage 2 from them.
 */
export async function trainingEvidence(world: DeskGateWorld, resourcesId: string, n = 16) {
  const inputs = Array.from({ length: n }, (_, i): EpisodeInput => ({ kind: "lightgate.episode", environment: "support-desk", distribution: "v2", task_seed: `train/${resourcesId}/${i}`, options: { toolFailureRate: 0, timeoutShare: 0 }, policy_resource: "policy" }));
  const rollouts = await world.store.enqueueRollouts(inputs.map((input) => ({ input, mode: "train", resources_id: resourcesId })));
  const ids = rollouts.map((r) => r.rollout_id);
  const stop = new AbortController();
  const tickets = new TicketDb(world.database.url);
  const runners = [0, 1].map((i) => new Runner({ url: world.url, apiKey: world.keys.get("runner")!, workerId: `train-runner-${i}`, destinations: tickets.resolve, pollMs: 20 }));
  const loops = runners.map((r) => r.run(stop.signal));
  try {
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      const done = await world.database.db.storeRollout.count({ where: { rolloutId: { in: ids }, status: { in: ["succeeded", "failed", "cancelled"] } } });
      if (done === ids.length) return ids;
    }
    throw new Error(`training rollouts of ${resourcesId} did not finish in 60 s`);
  } finally {
    stop.abort();
    await Promise.allSettled(loops);
    await tickets.close();
  }
}

export type Drive = { runners?: number; verifier?: boolean; timeoutMs?: number; extra?: (signal: AbortSignal) => Promise<unknown>[] };

/** Requests a gate run and drives it to the end with desk runners, a verifier and the orchestrator loop. */
export async function driveDeskGate(world: DeskGateWorld, candidateId: string, deadlineSeconds: number, opts: Drive = {}) {
  const run = await requestGateRun(world.database, { candidateId, actor: DESK_ALGORITHM, deadlineSeconds });
  return driveGateRun(world, run.id, opts);
}

/** Drives an existing gate run (an admission, or a canary stage queued by an approval) to its end. */
export async function driveGateRun(world: DeskGateWorld, runId: string, opts: Drive = {}) {
  const stop = new AbortController();
  const tickets = new TicketDb(world.database.url);
  const runners = Array.from({ length: opts.runners ?? 2 }, (_, i) => new Runner({ url: world.url, apiKey: world.keys.get("runner")!, workerId: `desk-runner-${i}`, destinations: tickets.resolve, pollMs: 20 }));
  const verifier = new Verifier({ url: world.url, apiKey: world.keys.get("verifier")!, destinations: tickets.resolve, pollMs: 50 });
  const loops = [
    ...runners.map((r) => r.run(stop.signal)),
    ...(opts.verifier === false ? [] : [verifier.run(stop.signal)]),
    ...(opts.extra?.(stop.signal) ?? []),
    orchestrateGates(world.database, stop.signal, { intervalMs: 50, owner: "test-orchestrator" }),
  ];
  const until = Date.now() + (opts.timeoutMs ?? 120_000);
  try {
    for (;;) {
      const row = await world.database.db.gateRun.findUniqueOrThrow({ where: { id: runId } });
      if (row.status === "done" || row.status === "failed") return row;
      if (Date.now() > until) throw new Error(`gate run ${runId} still ${row.phase} after ${opts.timeoutMs ?? 120_000} ms: ${row.progress}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    stop.abort();
    await Promise.allSettled(loops);
    await tickets.close();
  }
}
