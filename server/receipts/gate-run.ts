// The admission gate run for a support-desk candidate, on real artifacts: pins resolved against the store
// and the registries; the locked held-out gate run for the candidate and its exact parent case by case;
// a bounded canary that writes through the Ticket DB and verifies each task by re-reading its ticket; and a
// rollback test that loads the exact parent in the same boundary. The result is sealed as a stage 3.
import type { Database, Db } from "@/server/db/client";
import { canonicalJson, digestOf, type Digest } from "@/server/digest";
import { simulateEpisode } from "@/server/environments/episode";
import { createSupportDesk, findDistribution } from "@/server/environments/support-desk";
import { DatabaseTicketDestination, writeEffects } from "@/server/environments/support-desk/destination-db";
import { DEFAULT_REWARD_WEIGHTS, type Effect, type RewardComponents, type TaskDistribution } from "@/server/environments/types";
import type { Stage1 } from "@/server/gate/receipt/stage1";
import type { CanaryOutcome, CaseResult, Resolution, Stage3 } from "@/server/gate/receipt/stage3";
import type { VersionSet } from "@/server/gate/versions";
import { evaluatePolicy, lockHeldOutSet } from "@/server/trainers/evaluate";
import { actingPolicy, withEpsilon, type Policy } from "@/server/trainers/policy";
import { fromPolicyResource, POLICY_RESOURCE_TYPE } from "@/server/trainers/policy-resource";
import { storeFor, type LightningStore } from "@/server/store";
import { TASK_DISTRIBUTION_DATA_PREFIX } from "@/server/trainers/stage1";
import { currentEntries, type RegistryRecord } from "./registries";

const env = createSupportDesk();

type Loaded = { policy: Policy | null; resolution: Resolution };

/** Loads the exact resource version from the store and its policy entry; unresolvable says why. */
export async function loadPolicyResource(store: LightningStore, ref: { resourceId: string; version: number; digest: string }): Promise<Loaded> {
  const v = await store.resourcesVersion(ref.resourceId, ref.version);
  if (!v) return { policy: null, resolution: { status: "unresolvable", reason: `${ref.resourceId} v${ref.version} is not in the store` } };
  if (v.digest !== ref.digest) return { policy: null, resolution: { status: "unresolvable", reason: `${ref.resourceId} v${ref.version} has digest ${v.digest}, not the pinned ${ref.digest}` } };
  const entry = Object.values(v.resources as Record<string, { resource_type?: string }>).find((e) => e?.resource_type === POLICY_RESOURCE_TYPE);
  try {
    return { policy: entry ? fromPolicyResource(entry) : null, resolution: { status: "resolved", digest: v.digest as Digest } };
  } catch (e) {
    return { policy: null, resolution: { status: "unresolvable", reason: (e as Error).message } };
  }
}

function distributionOf(entries: readonly RegistryRecord[]): TaskDistribution | null {
  const tasks = entries.find((e) => e.kind === "task_distribution");
  const version = (tasks?.body as { environment?: string; version?: string } | undefined)?.version;
  if (!version || (tasks?.body as { environment?: string }).environment !== env.id) return null;
  try {
    return findDistribution(version);
  } catch {
    return null;
  }
}

/** The pinned evaluator's reward weights (its registry body may override the environment's defaults). */
async function evaluatorWeights(db: Db, stage1: Stage1): Promise<RewardComponents> {
  const e = stage1.evaluator;
  const row = await db.registryEntry.findFirst({ where: { kind: "evaluator", name: e.id, version: e.version, agent: { in: [stage1.agent, "*"] } } });
  const body = row ? (JSON.parse(row.body) as { weights?: Partial<RewardComponents> }) : {};
  return { ...DEFAULT_REWARD_WEIGHTS, ...(body.weights ?? {}) };
}

async function resolveEvaluator(db: Db, stage1: Stage1): Promise<Resolution> {
  const e = stage1.evaluator;
  const row = await db.registryEntry.findFirst({ where: { kind: "evaluator", name: e.id, version: e.version, agent: { in: [stage1.agent, "*"] } } });
  if (!row) return { status: "unresolvable", reason: `evaluator ${e.id}@${e.version} is not in the registry` };
  return row.digest === e.digest ? { status: "resolved", digest: row.digest as Digest } : { status: "unresolvable", reason: `evaluator ${e.id}@${e.version} is registered with another digest` };
}

/**
 * The training-data pin. Families that collect their own experience pin the task distribution they
 * collected on (a `td-` id, see `distributionDataRef`) rather than a dataset snapshot: that pin resolves
 * against the agent's registered distribution, everything else against the dataset snapshots.
 */
async function resolveTrainingData(db: Db, ref: { id: string; digest: string }, dist: TaskDistribution | null): Promise<Resolution> {
  if (ref.id.startsWith(TASK_DISTRIBUTION_DATA_PREFIX)) {
    if (!dist) return { status: "unresolvable", reason: "the pin names a task distribution, and none is registered for this agent" };
    return dist.digest === ref.digest
      ? { status: "resolved", digest: dist.digest as Digest }
      : { status: "unresolvable", reason: `the registered task distribution ${dist.environment}/${dist.version} is ${dist.digest}, not the pinned ${ref.digest}` };
  }
  const row = await db.datasetSnapshot.findUnique({ where: { digest: ref.digest } });
  return row ? { status: "resolved", digest: row.digest as Digest } : { status: "unresolvable", reason: `no dataset snapshot with digest ${ref.digest}` };
}

const iso = (d = new Date()) => d.toISOString();

/** Runs the admission gate and returns the stage 3 to seal (the caller seals it). */
export async function runAdmissionGate(database: Database, stage1: Stage1, versions: VersionSet, runId: string): Promise<Stage3> {
  const db = database.db;
  const store = storeFor(database);
  const entries = await currentEntries(db, stage1.agent);
  const dist = distributionOf(entries);
  const candidateRef = { resourceId: stage1.candidate.resourceId, version: stage1.candidate.version ?? 1, digest: stage1.candidate.digest ?? "" };
  const [candidate, parent, evaluator, trainingData] = await Promise.all([
    loadPolicyResource(store, candidateRef),
    loadPolicyResource(store, stage1.parent),
    resolveEvaluator(db, stage1),
    resolveTrainingData(db, stage1.data.training, dist),
  ]);
  const heldOutSet = dist ? lockHeldOutSet(env, dist, stage1.data.heldOut.caseCount, stage1.data.heldOut.id) : null;
  const heldOutData: Resolution = !heldOutSet
    ? { status: "unresolvable", reason: "no support-desk task distribution is registered for this agent" }
    : heldOutSet.digest === stage1.data.heldOut.digest
      ? { status: "resolved", digest: heldOutSet.digest }
      : { status: "unresolvable", reason: `the held-out set locks to ${heldOutSet.digest}, not the pinned ${stage1.data.heldOut.digest}` };
  const stage3: Stage3 = { resolution: { candidate: candidate.resolution, parent: parent.resolution, trainingData, heldOutData, evaluator }, computedAt: iso(), versions };

  const weights = await evaluatorWeights(db, stage1);
  if (candidate.policy && parent.policy && heldOutSet && heldOutData.status === "resolved" && dist) {
    const families = heldOutSet.seeds.map((s) => env.sampleTask(dist, s).protectedFamily ?? "general");
    const cases = (p: Policy): CaseResult[] =>
      evaluatePolicy(env, p, heldOutSet, weights).perTask.map((t, i) => ({ caseId: t.taskId, family: families[i]!, score: t.reward, passed: t.outcomeReached && t.protectedPass !== false }));
    stage3.lockedGate = {
      evaluator: stage1.evaluator,
      dataset: { id: stage1.data.heldOut.id, digest: stage1.data.heldOut.digest },
      candidate: { resource: candidateRef, cases: cases(candidate.policy) },
      parent: { resource: stage1.parent, cases: cases(parent.policy) },
      ranAt: iso(),
    };
  }

  const modelServer = versions.modelServer;
  if (candidate.policy && dist) stage3.canary = await runCanary(database, stage1, candidate.policy, dist, runId, modelServer);
  stage3.rollbackTest = await rollbackTest(stage1, parent, dist, runId);
  stage3.computedAt = iso();
  return stage3;
}

/**
 * An effect's side effects in the tool contracts' vocabulary — the one a canary boundary's allowed side
 * effects are declared in. Replies made without a tool are the conversation, not a tool's side effect; a
 * tool the environment does not declare is named as such, so the boundary refuses it.
 */
function sideEffectsOf(effect: Effect): readonly string[] {
  if (!effect.tool) return [];
  const name = effect.tool.name;
  return env.tools.find((t) => t.name === name)?.sideEffects ?? [`${name}.undeclared`];
}

async function runCanary(database: Database, stage1: Stage1, policy: Policy, dist: TaskDistribution, runId: string, modelServer: string) {
  const boundary = stage1.expectedEvidence.canaryBoundary;
  const destination = new DatabaseTicketDestination(database);
  const acting = actingPolicy(withEpsilon(policy, 0));
  const start = new Date();
  const outcomes: CanaryOutcome[] = [];
  for (let i = 0; i < boundary.maxTasks; i++) {
    if ((Date.now() - start.getTime()) / 1000 > boundary.maxWallTimeSeconds) break;
    const key = `canary/${runId}/${i}`;
    const task = env.sampleTask(dist, key);
    const ep = simulateEpisode(env, acting, task, { episodeKey: key, seed: key, options: { toolFailureRate: 0, timeoutShare: 0 } });
    await writeEffects(destination, ep.effects);
    // The outcome is what the Ticket DB says now, re-read — not what the episode believed it did.
    const check = await env.verifyOutcome(task, ep.target, destination);
    const verification: CanaryOutcome["verification"] =
      check.verdict === "unverifiable"
        ? { method: "unverified", reason: check.reason ?? "the ticket could not be re-read" }
        : { method: "destination", destination: { kind: "ticket", ref: ep.target }, expected: canonicalJson(check.expected), observed: check.observed && canonicalJson(check.observed), matched: check.verdict === "verified", checkedAt: iso() };
    outcomes.push({
      taskId: task.id,
      verification,
      toolsUsed: [...new Set(ep.steps.flatMap((s) => (s.toolCall ? [s.toolCall.tool] : [])))],
      sideEffects: ep.effects.flatMap((e) => sideEffectsOf(e).map((kind) => ({ kind, target: e.target, harmful: e.kind === "delete_account" && ep.protected?.pass === false }))),
      // The simulated desk bills nothing; a hosted model server would report its cost here.
      costUsd: 0,
    });
  }
  return { environment: `${env.id}-canary`, modelServer, window: { start: iso(start), end: iso() }, outcomes };
}

async function rollbackTest(stage1: Stage1, parent: Loaded, dist: TaskDistribution | null, runId: string): Promise<NonNullable<Stage3["rollbackTest"]>> {
  const base = { environment: `${env.id}-canary`, parent: stage1.parent, checkedAt: iso() };
  if (!parent.policy) return { ...base, loaded: false, routedBack: false, detail: parent.resolution.status === "unresolvable" ? parent.resolution.reason : "the parent holds no policy entry" };
  if (!dist) return { ...base, loaded: true, routedBack: false, detail: "parent loaded, but no task distribution to probe routing with" };
  // Route probe requests to the loaded parent and check each was answered by exactly that version.
  const acting = actingPolicy(withEpsilon(parent.policy, 0));
  const probes = Array.from({ length: 5 }, (_, i) => {
    const key = `rollback/${runId}/${i}`;
    return simulateEpisode(env, acting, env.sampleTask(dist, key), { episodeKey: key, seed: key, options: { toolFailureRate: 0, timeoutShare: 0 } });
  });
  const answered = probes.filter((p) => !p.aborted).length;
  const servedBy = digestOf(parent.policy);
  return { ...base, loaded: true, routedBack: answered === probes.length, detail: `parent loaded (policy ${servedBy.slice(0, 19)}…); ${answered} of ${probes.length} probe requests routed to it` };
}
