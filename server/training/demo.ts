// What `npm start` in demo mode adds so a newcomer sees training happen within the first minute: API keys
// for the runner and verifier processes it spawns, the desk's held-out and canary datasets published by its
// policy owner (the exam its candidates are gated on, through those runners), and a short continual PPO run
// on the support desk that publishes a candidate every few updates (the gate's stop conditions may pause it,
// with the reason shown).
import type { AuditActor } from "@/server/audit/audit-log";
import { createApiKey } from "@/server/auth/api-keys";
import type { Database } from "@/server/db/client";
import { publishDeskGateDatasets } from "@/server/desk/gate-datasets";
import type { ServiceRole } from "@/lib/auth/scopes";
import { publishDeskRegistry } from "@/server/desk/registry";
import { seedReferenceDemo } from "@/server/receipts/reference-demo";
import { currentEntries } from "@/server/receipts/registries";
import { latestOf } from "@/server/receipts/versions";
import { storeFor } from "@/server/store";
import { startRun } from "./runs";

const DEMO_KEY_NAMES = { runner: "demo runners (npm start)", verifier: "demo verifier (npm start)" } as const satisfies Partial<Record<ServiceRole, string>>;
export const DEMO_ACTOR: AuditActor = { kind: "system", id: "demo", name: "Demo (npm start)", grants: [] };

/** A fresh key for this start; the previous start's demo keys of that role are revoked (their secrets are gone). */
async function demoKey(database: Database, role: keyof typeof DEMO_KEY_NAMES): Promise<string> {
  const name = DEMO_KEY_NAMES[role];
  await database.db.apiKey.updateMany({ where: { name, revokedAt: null }, data: { revokedAt: new Date() } });
  return (await createApiKey(database.db, { name, role, createdBy: DEMO_ACTOR.id })).token;
}

export const demoRunnerKey = (database: Database) => demoKey(database, "runner");
/** The verifier's own key: a canary outcome is never verified by the identity that produced it. */
export const demoVerifierKey = (database: Database) => demoKey(database, "verifier");

/** The agent the live demo trains: the support desk as its own workflow, apart from the reference's `support-desk`. */
export const DEMO_AGENT = "helpdesk";
/** Who publishes the demo desk's rules and exam: its policy owner, never the trainer. */
export const DESK_POLICY_OWNER: AuditActor = { kind: "system", id: "desk-policy-owner", name: "Support desk policy owner", grants: [] };

/**
 * The desk's rules (evaluator, tool contracts with their side effects, task distribution, protected families,
 * model server) and its exam, published by its policy owner — never by the demo's trainer, which must not write
 * its own exam. Idempotent: same content, same entries and datasets.
 */
export async function ensureDeskGate(database: Database, policyOwner: AuditActor = DESK_POLICY_OWNER) {
  await publishDeskRegistry(database, { agent: DEMO_AGENT, distribution: "v2", actor: policyOwner });
  return publishDeskGateDatasets(database, { agent: DEMO_AGENT, distribution: await registeredDistribution(database, DEMO_AGENT), actor: policyOwner });
}

/** The task distribution version registered for the agent (what the gate locks its held-out set on). */
async function registeredDistribution(database: Database, agent: string): Promise<string> {
  const body = latestOf(await currentEntries(database.db, agent), "task_distribution")?.body as { version?: unknown } | undefined;
  return typeof body?.version === "string" ? body.version : "v2";
}

/** Queues the demo run unless one is already queued, running or paused (a restart resumes that one). */
export async function ensureDemoRun(database: Database): Promise<string> {
  const open = await database.db.trainingRun.findFirst({ where: { startedById: DEMO_ACTOR.id, status: { in: ["queued", "running", "paused"] } } });
  if (open) return open.id;
  const run = await startRun(
    database,
    storeFor(database),
    {
      agent: DEMO_AGENT,
      family: "ppo",
      config: { episodesPerUpdate: 32, toolFailureRate: 0.05, maxAttempts: 3 },
      seed: `demo-${new Date().toISOString().slice(0, 10)}`,
      environment: "support-desk",
      distribution: await registeredDistribution(database, DEMO_AGENT),
      updates: 60,
      checkpointEvery: 5,
      continual: true,
      candidateEvery: 5,
      heldOutCases: 200,
      retryBudget: 100,
    },
    DEMO_ACTOR,
  );
  return run.id;
}

export type DemoWorld = { runnerKey: string; verifierKey: string; runId: string };

/**
 * Demo mode's world: the reference candidates at the gate (evidence ages counted from `now`), the desk's
 * gate datasets published by the policy owner who seeds its registries, a key per service, and the
 * continual PPO run (queued). Its candidates reach the gate on their own: the worker runs with --gates.
 */
export async function prepareDemoWorld(database: Database, now = new Date()): Promise<DemoWorld> {
  await seedReferenceDemo(database, { now });
  await ensureDeskGate(database);
  return { runnerKey: await demoRunnerKey(database), verifierKey: await demoVerifierKey(database), runId: await ensureDemoRun(database) };
}

export type DemoHelper = { script: string; args: string[]; env: Record<string, string> };

/**
 * The processes demo mode runs beside the server: the trainer worker (also running gate runs), two runners
 * (serving training and gate rollouts, canary effects into the Ticket DB) and the verifier re-reading those
 * tickets. Each service gets only its own key: the verifier never holds the runners'.
 */
export function demoHelpers(url: string, world: Pick<DemoWorld, "runnerKey" | "verifierKey">, quiet: boolean): DemoHelper[] {
  const q = quiet ? ["--quiet"] : [];
  return [
    { script: "scripts/worker.ts", args: ["--id", "demo-trainer", "--gates", ...q], env: {} },
    ...[1, 2].map((i) => ({ script: "scripts/runner.ts", args: ["--url", url, "--id", `demo-runner-${i}`, ...q], env: { LIGHTGATE_RUNNER_KEY: world.runnerKey } })),
    { script: "scripts/verifier.ts", args: ["--url", url, ...q], env: { LIGHTGATE_VERIFIER_KEY: world.verifierKey } },
  ];
}

