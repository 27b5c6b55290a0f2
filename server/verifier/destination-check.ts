// Verifying one canary outcome by re-reading where its effect landed: the case's input re-creates the task,
// the attempt names the record it acted on (`lightgate.target`, derived from `lightgate.episode_key`), and
// the environment's own `verifyOutcome` compares the destination's record with the task's expected outcome.
// The answer is evidence either way (matched or not), or "retry" when the destination could not be read,
// or "skip" when this verifier cannot judge the case at all (another verifier may).
import { z } from "zod";
import { ownValue } from "@/lib/own";
import { canonicalJson } from "@/server/digest";
import type { EnvironmentRegistry } from "@/server/environments/registry";
import type { DestinationResolver } from "@/server/environments/support-desk/ticket-db";
import { distributionOf, ZEpisodeInput } from "@/server/runner/episode-input";
import { GATE_KEYS } from "@/server/runner/gate-rollout";
import type { DestinationVerification, PendingVerification } from "./client";

export type CheckResult = { kind: "post"; body: DestinationVerification } | { kind: "retry"; reason: string } | { kind: "skip"; reason: string };

/** What a published case's `expected` holds for the verifier (both parts optional for other publishers). */
const ZExpected = z.looseObject({ task_id: z.string().optional(), ticket: z.record(z.string(), z.unknown()).optional() }).nullable().catch(null);

const NOTE_LIMIT = 1_000;

export async function checkDestinationOutcome(item: PendingVerification, deps: { registry: EnvironmentRegistry; destinations: DestinationResolver }): Promise<CheckResult> {
  const input = ZEpisodeInput.safeParse(item.input);
  if (!input.success) return { kind: "skip", reason: "its input is not an episode this verifier can re-create" };
  if (!deps.registry.has(input.data.environment)) return { kind: "skip", reason: `no environment ${input.data.environment} here` };
  const env = deps.registry.get(input.data.environment);
  let destination;
  try {
    destination = await deps.destinations(env.id);
  } catch (e) {
    return { kind: "retry", reason: `the destination could not be opened: ${(e as Error).message}` };
  }
  if (!destination) return { kind: "skip", reason: `this verifier has no destination for ${env.id}` };
  let task;
  try {
    task = env.sampleTask(distributionOf(env, input.data.distribution, input.data.distribution_digest), input.data.task_seed);
  } catch (e) {
    return { kind: "skip", reason: (e as Error).message };
  }

  const post = (matched: boolean, note: string, evidence: { expected?: unknown; observed?: unknown } = {}): CheckResult => ({
    kind: "post",
    body: {
      rollout_id: item.rollout_id,
      method: "destination",
      matched,
      ...(evidence.expected !== undefined ? { expected: canonicalJson(evidence.expected) } : {}),
      ...(evidence.observed !== undefined && evidence.observed !== null ? { observed: canonicalJson(evidence.observed) } : {}),
      note: note.slice(0, NOTE_LIMIT),
    },
  });

  const expected = ZExpected.parse(item.expected);
  if (expected?.task_id !== undefined && expected.task_id !== task.id) return post(false, `the case's input draws task ${task.id}, its expected outcome names ${expected.task_id}`);
  const metadata = item.attempt?.metadata ?? {};
  const target = ownValue(metadata, GATE_KEYS.target);
  const episodeKey = ownValue(metadata, GATE_KEYS.episodeKey);
  // Without a record to re-read, the evidence is what was expected and that nothing can show it.
  const unshown = { expected: expected?.ticket };
  if (typeof target !== "string" || target.length === 0) return post(false, `the runner recorded no destination record for this outcome (attempt ${item.attempt?.status ?? "missing"})`, unshown);
  // The record must be the one this rollout's own episode works on, not another outcome's.
  if (typeof episodeKey !== "string" || !episodeKey.startsWith(`${item.rollout_id}/`) || env.targetFor(task, episodeKey) !== target) {
    return post(false, `${target} is not the record this rollout's episode works on`, unshown);
  }
  try {
    await destination.read(target);
  } catch (e) {
    return { kind: "retry", reason: `${target} could not be read: ${(e as Error).message}` };
  }

  const check = await env.verifyOutcome(task, target, destination);
  const problems = [...check.mismatches];
  if (check.verdict === "unverifiable") problems.push(check.reason ?? `${target} could not be checked`);
  if (expected?.ticket !== undefined && canonicalJson(expected.ticket) !== canonicalJson(check.expected)) {
    problems.push(`the published case expects ${canonicalJson(expected.ticket)}, the environment expects ${canonicalJson(check.expected)}`);
  }
  const owner = check.observed ? ownValue(check.observed, "taskId") : undefined;
  if (owner !== undefined && owner !== task.id) problems.push(`${target} belongs to task ${String(owner)}, not ${task.id}`);
  const matched = check.verdict === "verified" && problems.length === 0;
  return post(matched, `${target}: ${matched ? "the destination shows the expected outcome" : problems.join("; ")}`, { expected: check.expected, observed: check.observed });
}
