// What `npm start` in demo mode adds so a newcomer sees training happen within the first minute: API keys
// for the runner and verifier processes it spawns, the desk's held-out and canary datasets published by its
// policy owner (the exam its candidates are gated on, through those runners), and two runs on the support desk:
// an imitation run (supervised, on scripted-expert demonstrations) whose candidate the gate judges through the
// runners — good enough to pass on that evidence, so the approve flow is reachable —, then a continual PPO run
// fine-tuning that candidate, paced to one update every PACE seconds so it is still live hours later (it publishes
// a candidate every CANDIDATE_EVERY updates, each gated; the gate's stop conditions may pause it, with the reason).
// Beside them, a second agent on the text desk (`helpdesk-text`, distribution v6-text-order, where word order carries
// the meaning): a text-policy run — the tiny transformer that reads the ticket — whose candidate is gated the same way.
import type { AuditActor } from "@/server/audit/audit-log";
import { createApiKey } from "@/server/auth/api-keys";
import type { Database } from "@/server/db/client";
import { publishDeskGateDatasets } from "@/server/desk/gate-datasets";
import type { ServiceRole } from "@/lib/auth/scopes";
import { publishDeskRegistry } from "@/server/desk/registry";
import { createSupportDesk, ORDER_DESK_VERSION, SUPPORT_DESK_DISTRIBUTIONS, TEXT_ENVIRONMENT_ID } from "@/server/environments/support-desk";
import { deskTextExpert } from "@/server/environments/support-desk/expert";
import { collectDemonstrations } from "@/server/trainers/data-sources";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { AGENT as REFERENCE_AGENT } from "@/server/gate/reference/common";
import { currentEntries } from "@/server/receipts/registries";
import { latestOf } from "@/server/receipts/versions";
import { createSnapshot } from "@/server/datasets/snapshot";
import { expertData } from "@/server/evaluations/setup";
import { storeFor } from "@/server/store";
import { startRun } from "./runs";

const DEMO_KEY_NAMES = { runner: "demo runners (npm start)", verifier: "demo verifier (npm start)" } as const satisfies Partial<Record<ServiceRole, string>>;
export const DEMO_ACTOR: AuditActor = { kind: "system", id: "demo", name: "Demo (npm start)", grants: [] };

/** A fresh key for this start; the previous start's demo keys of that role are revoked (their secrets are gone). */
async function demoKey(database: Database, role: keyof typeof DEMO_KEY_NAMES, agents?: string[]): Promise<string> {
  const name = DEMO_KEY_NAMES[role];
  await database.db.apiKey.updateMany({ where: { name, revokedAt: null }, data: { revokedAt: new Date() } });
  return (await createApiKey(database.db, { name, role, agents, createdBy: DEMO_ACTOR.id })).token;
}

/**
 * The demo's runners serve its desks only — the live one and the reference one —, so another agent's work
 * (a foreign agent gated beside the demo) waits for that agent's own runners instead of being taken here.
 */
export const demoRunnerKey = (database: Database) => demoKey(database, "runner", [DEMO_AGENT, DEMO_TEXT_AGENT, REFERENCE_AGENT]);
/**
 * The verifier's own key: a canary outcome is never verified by the identity that produced it. Bound to the desks
 * too: it re-reads the desk's Ticket DB, which knows nothing of another agent's destinations.
 */
export const demoVerifierKey = (database: Database) => demoKey(database, "verifier", [DEMO_AGENT, DEMO_TEXT_AGENT, REFERENCE_AGENT]);

/** The agent the live demo trains: the support desk as its own workflow, apart from the reference's `support-desk`. */
export const DEMO_AGENT = "helpdesk";
/** The same desk read as text (support-desk-text): what the text policy is trained and gated on. */
export const DEMO_TEXT_AGENT = "helpdesk-text";
/** Who publishes the demo desk's rules and exam: its policy owner, never the trainer. */
export const DESK_POLICY_OWNER: AuditActor = { kind: "system", id: "desk-policy-owner", name: "Support desk policy owner", grants: [] };

/**
 * The desk's rules (evaluator, tool contracts with their side effects, task distribution, protected families,
 * model server) and its exam, published by its policy owner — never by the demo's trainer, which must not write
 * its own exam. Idempotent: same content, same entries and datasets; and whatever a person published since
 * through the registries page (a new evaluator version, exam, boundary…) stays in force, so every start succeeds.
 */
export async function ensureDeskGate(database: Database, policyOwner: AuditActor = DESK_POLICY_OWNER) {
  await publishDeskRegistry(database, { agent: DEMO_AGENT, distribution: "v2", actor: policyOwner });
  return publishDeskGateDatasets(database, { agent: DEMO_AGENT, distribution: await registeredDistribution(database, DEMO_AGENT), actor: policyOwner, yieldToOthers: true });
}

/** The text desk's rules and exam for the text agent, published by the same policy owner (v6-text-order). */
export async function ensureTextDeskGate(database: Database, policyOwner: AuditActor = DESK_POLICY_OWNER) {
  const at = { agent: DEMO_TEXT_AGENT, environment: TEXT_ENVIRONMENT_ID, actor: policyOwner };
  await publishDeskRegistry(database, { ...at, distribution: ORDER_DESK_VERSION });
  return publishDeskGateDatasets(database, { ...at, distribution: await registeredTextDistribution(database), yieldToOthers: true });
}

const textDesk = createSupportDesk({ variant: "text" });
/** The text agent's registered distribution when the text desk knows it, else v6-text-order. */
async function registeredTextDistribution(database: Database): Promise<string> {
  const body = latestOf(await currentEntries(database.db, DEMO_TEXT_AGENT), "task_distribution")?.body as { version?: unknown } | undefined;
  return typeof body?.version === "string" && textDesk.distributions.some((d) => d.version === body.version) ? body.version : ORDER_DESK_VERSION;
}

/**
 * Queues the text run unless one that did not fail exists: 400 scripted-expert demonstrations of the text desk (each
 * step with the words the agent read) as a stored snapshot, then the text-policy phases — masked-token
 * pre-training, behaviour cloning, PPO — 20 updates in all, continual so its candidate is gated.
 */
export async function ensureTextRun(database: Database): Promise<string> {
  const existing = await database.db.trainingRun.findFirst({ where: { startedById: DEMO_ACTOR.id, family: "text-policy", status: { not: "failed" } }, orderBy: { createdAt: "desc" } });
  if (existing) return existing.id;
  const distribution = await registeredTextDistribution(database);
  const dist = textDesk.distributions.find((d) => d.version === distribution)!;
  const records = collectDemonstrations(textDesk, [{ id: "expert", policyFor: deskTextExpert }], { distribution: dist, count: 400, seed: "demo-text-demonstrations" });
  const snapshot = await createSnapshot(database, { name: `${DEMO_TEXT_AGENT}/expert-demonstrations`, records, createdBy: DEMO_ACTOR.id });
  const run = await startRun(
    database,
    storeFor(database),
    {
      agent: DEMO_TEXT_AGENT,
      family: "text-policy",
      config: {},
      seed: "demo-text",
      environment: TEXT_ENVIRONMENT_ID,
      distribution,
      dataSnapshotId: snapshot.id,
      updates: 20,
      checkpointEvery: 5,
      continual: true,
      candidateEvery: 20,
      heldOutCases: 200,
      retryBudget: 100,
      name: "text desk: reads the ticket",
      tags: ["demo", "text", "transformer"],
    },
    DEMO_ACTOR,
  );
  return run.id;
}

/**
 * The task distribution version registered for the agent (what the gate locks its held-out set on); the demo's
 * own "v2" when the registered one is none the desk knows (an owner may publish any body).
 */
async function registeredDistribution(database: Database, agent: string): Promise<string> {
  const body = latestOf(await currentEntries(database.db, agent), "task_distribution")?.body as { version?: unknown } | undefined;
  return typeof body?.version === "string" && SUPPORT_DESK_DISTRIBUTIONS.some((d) => d.version === body.version) ? body.version : "v2";
}

/** The fine-tuning run's pace and how often it publishes a candidate (each one gated through the runners). */
const PACE_SECONDS = 15;
const CANDIDATE_EVERY = 40;
const IMITATION = "desk imitation";

/**
 * Queues the imitation run (3,000 scripted-expert demonstrations — a quarter from a sloppy novice — as a stored
 * snapshot, up to 40 epochs) unless the demo already has one that did not fail. Continual, so its candidate is gated.
 */
export async function ensureImitationRun(database: Database): Promise<string> {
  const existing = await database.db.trainingRun.findFirst({ where: { startedById: DEMO_ACTOR.id, family: "supervised", status: { not: "failed" } }, orderBy: { createdAt: "desc" } });
  if (existing) return existing.id;
  const snapshot = await createSnapshot(database, { name: `${DEMO_AGENT}/expert-demonstrations`, records: expertData(3_000, "demo-demonstrations").records, createdBy: DEMO_ACTOR.id });
  const run = await startRun(
    database,
    storeFor(database),
    {
      agent: DEMO_AGENT,
      family: "supervised",
      // Only the demonstrations scored ≥ 0.9 (the sloppy novice's mostly fall out), weighted by quality.
      config: { maxEpochs: 40, qualityFiltering: { minQuality: 0.9 }, weighting: "quality", earlyStopping: { patience: 5 } },
      seed: "demo-imitation",
      environment: "support-desk",
      distribution: await registeredDistribution(database, DEMO_AGENT),
      dataSnapshotId: snapshot.id,
      updates: 40,
      checkpointEvery: 5,
      continual: true,
      candidateEvery: 40,
      heldOutCases: 200,
      retryBudget: 100,
      name: IMITATION,
      tags: ["demo", "imitation"],
    },
    DEMO_ACTOR,
  );
  return run.id;
}

/**
 * Queues the live run — continual PPO fine-tuning the imitation run's candidate, gently (small steps, little
 * exploration, so it refines rather than forgets), paced — once that candidate exists; null until then. A run
 * already queued, running or paused is kept (a restart resumes it).
 */
export async function ensureDemoRun(database: Database): Promise<string | null> {
  const open = await database.db.trainingRun.findFirst({ where: { startedById: DEMO_ACTOR.id, family: "ppo", status: { in: ["queued", "running", "paused"] } } });
  if (open) return open.id;
  const imitation = await database.db.trainingRun.findFirst({ where: { startedById: DEMO_ACTOR.id, family: "supervised", status: "finished" }, orderBy: { createdAt: "desc" } });
  const parent = imitation && (await database.db.candidate.findFirst({ where: { trainingRunId: imitation.id }, orderBy: { createdAt: "desc" } }));
  if (!parent) return null;
  const run = await startRun(
    database,
    storeFor(database),
    {
      agent: DEMO_AGENT,
      family: "ppo",
      config: { episodesPerUpdate: 32, toolFailureRate: 0.05, maxAttempts: 3, learningRate: 0.01, exploration: { epsilonStart: 0.05, epsilonEnd: 0.02, epsilonDecay: 0.9 } },
      seed: `demo-${new Date().toISOString().slice(0, 10)}`,
      environment: "support-desk",
      distribution: await registeredDistribution(database, DEMO_AGENT),
      parent: { resourcesId: parent.resourcesId, version: parent.version },
      updates: 10_000,
      checkpointEvery: 5,
      continual: true,
      candidateEvery: CANDIDATE_EVERY,
      heldOutCases: 200,
      retryBudget: 100,
      paceSeconds: PACE_SECONDS,
      name: "desk fine-tune (live)",
      tags: ["demo", "continual", "ppo"],
    },
    DEMO_ACTOR,
  );
  return run.id;
}

/** Polls until the imitation run's candidate exists, then queues the live run; resolves with its id (null if aborted). */
export async function queueDemoRunWhenReady(database: Database, signal: AbortSignal, pollMs = 2_000): Promise<string | null> {
  while (!signal.aborted) {
    const id = await ensureDemoRun(database);
    if (id) return id;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return null;
}

export type DemoWorld = { runnerKey: string; verifierKey: string; runId: string; textRunId: string };

/**
 * Demo mode's world: the reference candidates at the gate (evidence ages counted from `now`), the desk's
 * gate datasets published by the policy owner who seeds its registries, a key per service, and the imitation
 * run (queued; `runId`). Its candidate reaches the gate on its own (the worker runs with --gates);
 * queueDemoRunWhenReady then starts the live fine-tuning run from it.
 */
export async function prepareDemoWorld(database: Database, now = new Date()): Promise<DemoWorld> {
  await seedReferenceDemo(database, { now });
  await ensureDeskGate(database);
  await ensureTextDeskGate(database);
  const runId = await ensureImitationRun(database);
  return { runnerKey: await demoRunnerKey(database), verifierKey: await demoVerifierKey(database), runId, textRunId: await ensureTextRun(database) };
}

export type DemoHelper = { script: string; args: string[]; env: Record<string, string> };

/**
 * The processes demo mode runs beside the server: two trainer workers (the first also running gate runs; the
 * second keeps runs a person starts from waiting behind the paced live run, which holds its worker for hours),
 * two runners (serving training and gate rollouts, canary effects into the Ticket DB) and the verifier
 * re-reading those tickets. Each service gets only its own key: the verifier never holds the runners'.
 */
export function demoHelpers(url: string, world: Pick<DemoWorld, "runnerKey" | "verifierKey">, quiet: boolean): DemoHelper[] {
  const q = quiet ? ["--quiet"] : [];
  return [
    { script: "scripts/worker.ts", args: ["--id", "demo-trainer", "--gates", ...q], env: {} },
    { script: "scripts/worker.ts", args: ["--id", "demo-trainer-2", ...q], env: {} },
    ...[1, 2].map((i) => ({ script: "scripts/runner.ts", args: ["--url", url, "--id", `demo-runner-${i}`, ...q], env: { LIGHTGATE_RUNNER_KEY: world.runnerKey } })),
    { script: "scripts/verifier.ts", args: ["--url", url, ...q], env: { LIGHTGATE_VERIFIER_KEY: world.verifierKey } },
  ];
}

