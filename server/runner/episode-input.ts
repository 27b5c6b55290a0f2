// The input of an episode rollout: what the trainer worker enqueues and the runner executes. The task is
// drawn from a seed, so the rollout is small and any runner re-creates exactly the same ticket.
import { z } from "zod";
import type { AnyEnvironment } from "@/server/trainers/family";
import type { TaskDistribution } from "@/server/environments/types";

export const POLICY_RESOURCE_NAME = "policy";

/**
 * Rollout metadata a collector may set: the version of `resources_id` it enqueued the episode for. A runner that
 * already holds that version parsed (fetched and checked once: versions never change) acts with it without
 * fetching the resources again; otherwise it fetches as usual. Gate rollouts always fetch (they pin a digest).
 */
export const RESOURCES_VERSION_KEY = "lightgate.resources_version";

/** The version a rollout's metadata names, or null. */
export function resourcesVersionHint(metadata: Record<string, unknown> | null | undefined): number | null {
  const v = metadata?.[RESOURCES_VERSION_KEY];
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : null;
}

export const ZEpisodeInput = z.object({
  kind: z.literal("lightgate.episode"),
  environment: z.string().min(1),
  distribution: z.string().min(1),
  /** Pins the distribution's content (a published gate case does): a runner whose copy differs refuses the case. */
  distribution_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256:<64 hex>").optional(),
  task_seed: z.string().min(1),
  options: z.object({ toolFailureRate: z.number().min(0).max(1).optional(), timeoutShare: z.number().min(0).max(1).optional() }).strict().default({}),
  /** Name of the policy entry in the rollout's NamedResources. */
  policy_resource: z.string().min(1).default(POLICY_RESOURCE_NAME),
});
export type EpisodeInput = z.infer<typeof ZEpisodeInput>;

export function distributionOf(env: AnyEnvironment, version: string, digest?: string): TaskDistribution {
  const d = env.distributions.find((x) => x.version === version);
  if (!d) throw new Error(`${env.id} has no task distribution "${version}" (known: ${env.distributions.map((x) => x.version).join(", ")})`);
  if (digest !== undefined && d.digest !== digest) throw new Error(`distribution_digest: ${env.id}/${version} here is ${d.digest}, the input pins ${digest}`);
  return d;
}

/** Seed of attempt k of a rollout: the same convention as the in-process loop (loop.ts). */
export const attemptSeed = (taskSeed: string, attemptNumber: number) => `${taskSeed}/attempt-${attemptNumber}`;
