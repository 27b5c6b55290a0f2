// The support desk's registry entries, as its policy owner publishes them for an agent trained on it: the
// runner-scored evaluator, a tool contract per desk tool (its side effects and whether it is destructive,
// which is what the gate's canary boundary judges spans by), the task distribution with its digest, the
// protected families, the model server (runners price nothing: zero per token) and the retry policy.
// Idempotent, and yields to the owner: see publishDeskRegistry.
import type { AuditActor } from "@/server/audit/audit-log";
import type { Database } from "@/server/db/client";
import { digestOf } from "@/server/digest";
import { environments } from "@/server/environments/registry";
import { ENVIRONMENT_ID } from "@/server/environments/support-desk";
import { distributionOf } from "@/server/runner/episode-input";
import { DEFAULT_REWARD_WEIGHTS } from "@/server/environments/types";
import { currentEntries, publishRegistryEntry, type PublishInput } from "@/server/receipts/registries";
import { APP_VERSION } from "@/server/version";

export const DESK_EVALUATOR = { id: "support-desk-runner-evaluator", version: "1" } as const;
export const deskEvaluatorBody = (environment = ENVIRONMENT_ID) => ({ scoring: "runner_reward", environment, weights: { ...DEFAULT_REWARD_WEIGHTS } });
export const DESK_EVALUATOR_BODY = deskEvaluatorBody();
export const DESK_MODEL_SERVER = "lightgate-policy-server";

/** The entries for an agent on a desk: `support-desk` (default) or the text desk, `support-desk-text`. */
export function deskRegistryEntries(agent: string, distribution: string, environment = ENVIRONMENT_ID): Omit<PublishInput, "actor">[] {
  const desk = environments.get(environment);
  const dist = distributionOf(desk, distribution);
  const entry = (kind: PublishInput["kind"], name: string, body: unknown, version?: string) => ({ kind, name, agent, body, version });
  return [
    entry("evaluator", DESK_EVALUATOR.id, deskEvaluatorBody(desk.id), DESK_EVALUATOR.version),
    ...desk.tools.map((t) => entry("tool_contract", t.name, { tool: t.name, version: t.version, digest: t.digest, side_effects: [...t.sideEffects], destructive: t.destructive })),
    entry("task_distribution", `${desk.id}/tasks`, { environment: desk.id, version: dist.version, digest: dist.digest }),
    entry("model_server", DESK_MODEL_SERVER, { endpoint: "runner-local", pricing: { input_usd_per_million_tokens: 0, output_usd_per_million_tokens: 0 } }, APP_VERSION),
    entry("retry_policy", agent, { rolloutConfig: { max_attempts: 1, retry_condition: [] } }),
    entry("destination", `${desk.id}:tickets`, { kind: "ticket-db", reread: "ticket by id" }),
    ...desk.protectedFamilies.map((family) => entry("protected_family", family, { maxRegressions: 0 })),
  ];
}

/**
 * Publishes what is missing, or changed since the actor's own last publication; returns how many entries it
 * published. Whatever someone else published since (a person's new evaluator version, tool contract,
 * boundary…) is left in force, and a fixed version already taken — current or superseded — is never published
 * again (versions are immutable), so a restart of the demo never fails on, or overwrites, an owner's work.
 */
export async function publishDeskRegistry(database: Database, input: { agent: string; environment?: string; distribution: string; actor: AuditActor }): Promise<number> {
  const current = new Map((await currentEntries(database.db, input.agent)).filter((e) => e.agent === input.agent).map((e) => [`${e.kind}\u0000${e.name}`, e]));
  let published = 0;
  for (const e of deskRegistryEntries(input.agent, input.distribution, input.environment)) {
    const held = current.get(`${e.kind}\u0000${e.name}`);
    if (held && held.createdById !== input.actor.id) continue;
    if (held && held.digest === digestOf(e.body) && (e.version === undefined || held.version === e.version)) continue;
    if (e.version !== undefined && (await versionTaken(database, { ...e, version: e.version }))) continue;
    await publishRegistryEntry(database, { ...e, actor: input.actor });
    published++;
  }
  return published;
}

const versionTaken = async (database: Database, e: { kind: string; name: string; agent: string; version: string }) =>
  (await database.db.registryEntry.count({ where: { kind: e.kind, name: e.name, agent: e.agent, version: e.version } })) > 0;
