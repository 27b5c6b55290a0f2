// What `npm start` in demo mode adds so a newcomer sees training happen within the first minute: a runner
// API key for the runner processes it spawns, and a short continual PPO run on the support desk that
// publishes a candidate every few updates (the gate's stop conditions may pause it, with the reason shown).
import type { AuditActor } from "@/server/audit/audit-log";
import { createApiKey } from "@/server/auth/api-keys";
import type { Database } from "@/server/db/client";
import { currentEntries } from "@/server/receipts/registries";
import { latestOf } from "@/server/receipts/versions";
import { storeFor } from "@/server/store";
import { startRun } from "./runs";

const DEMO_KEY_NAME = "demo runners (npm start)";
export const DEMO_ACTOR: AuditActor = { kind: "system", id: "demo", name: "Demo (npm start)", grants: [] };

/** A fresh runner key for this start; the previous start's demo keys are revoked (their secrets are gone). */
export async function demoRunnerKey(database: Database): Promise<string> {
  await database.db.apiKey.updateMany({ where: { name: DEMO_KEY_NAME, revokedAt: null }, data: { revokedAt: new Date() } });
  return (await createApiKey(database.db, { name: DEMO_KEY_NAME, role: "runner", createdBy: DEMO_ACTOR.id })).token;
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
      agent: "support-desk",
      family: "ppo",
      config: { episodesPerUpdate: 32, toolFailureRate: 0.05, maxAttempts: 3 },
      seed: `demo-${new Date().toISOString().slice(0, 10)}`,
      environment: "support-desk",
      distribution: await registeredDistribution(database, "support-desk"),
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
