// What acts in a rollout: the entry of the rollout's NamedResources its input names, either a Lightgate
// policy (acted on in-process) or an Agent Lightning prompt template (executed by a responder: an
// OpenAI-compatible endpoint when the runner has one, else the deterministic built-in responder).
import { simulateEpisode, type Episode, type EpisodeRun } from "@/server/environments/episode";
import type { EnvTask } from "@/server/environments/types";
import type { AnyEnvironment } from "@/server/trainers/family";
import { actingPolicy, type Policy } from "@/server/trainers/policy";
import { fromPolicyResource, POLICY_RESOURCE_TYPE } from "@/server/trainers/policy-resource";
import { BUILTIN_SCORER, builtinResponder } from "@/server/trainers/prompt/builtin";
import { promptEpisode } from "@/server/trainers/prompt/episode";
import { openaiResponder, type LlmEndpoint, type LlmLimits } from "@/server/trainers/prompt/openai";
import type { Responder } from "@/server/trainers/prompt/responder";
import { fromPromptResource, PROMPT_RESOURCE_TYPE } from "@/server/trainers/prompt/template";
import { ownValue } from "@/lib/own";
import type { NamedResources } from "@/server/store/types";

export type Actor =
  | { kind: "policy"; policy: Policy; digest: string }
  | { kind: "prompt"; template: string; digest: string };

const typeOf = (v: unknown) => (v && typeof v === "object" ? (v as { resource_type?: unknown }).resource_type : undefined);

/**
 * The entry named `name`; without one, the resources' only prompt template (how Agent Lightning's APO
 * finds its prompt, and the name Lightgate publishes prompt candidates under is "prompt_template").
 */
export function actorEntry(resources: NamedResources, name: string): unknown {
  const named = ownValue(resources, name);
  if (named !== undefined) return named;
  const prompts = Object.keys(resources).filter((k) => typeOf(ownValue(resources, k)) === PROMPT_RESOURCE_TYPE);
  if (prompts.length === 1) return ownValue(resources, prompts[0]!);
  const have = Object.keys(resources).slice(0, 20).join(", ") || "none";
  throw new Error(`the resources hold no entry "${name}"${prompts.length > 1 ? ` and ${prompts.length} prompt templates (name one in policy_resource)` : ""} (entries: ${have})`);
}

export function actorOf(entry: unknown): Actor {
  const type = typeOf(entry);
  if (type === PROMPT_RESOURCE_TYPE) {
    const p = fromPromptResource(entry);
    return { kind: "prompt", template: p.template, digest: p.digest };
  }
  if (type === POLICY_RESOURCE_TYPE) return { kind: "policy", policy: fromPolicyResource(entry), digest: (entry as { digest: string }).digest };
  throw new Error(`resource_type must be "${POLICY_RESOURCE_TYPE}" or "${PROMPT_RESOURCE_TYPE}", got ${JSON.stringify(type ?? null)?.slice(0, 80)}`);
}

/** The runner's language model for prompt resources; null means the built-in responder. */
export type RunnerLlm = { endpoint: LlmEndpoint; limits?: Partial<LlmLimits> } | null;

/** Makes (once) the responder prompt resources are executed with. */
export function responderFactory(llm: RunnerLlm): (env: AnyEnvironment) => Responder {
  let model: Responder | null = null;
  return (env) => {
    if (llm) return (model ??= openaiResponder(llm.endpoint, { concurrency: 4, timeoutMs: 30_000, maxRetries: 3, ...llm.limits }));
    if (env.id !== "support-desk") throw new Error(`${BUILTIN_SCORER} only knows the support desk; give this runner an OpenAI-compatible endpoint (OPENAI_BASE_URL) to execute prompts for ${env.id}`);
    return builtinResponder;
  };
}

export type ActedEpisode = { episode: Episode; responder: string | null; parseFailure: string | null };

/** One episode of the actor on a task; `serve` (the gate's phases) acts as the policy is published, never exploring. */
export async function actEpisode(env: AnyEnvironment, actor: Actor, task: EnvTask, run: EpisodeRun, serve: boolean, responderFor: (env: AnyEnvironment) => Responder): Promise<ActedEpisode> {
  if (actor.kind === "policy") {
    return { episode: simulateEpisode(env, actingPolicy(actor.policy, serve ? "serve" : "explore"), task, run), responder: null, parseFailure: null };
  }
  const responder = responderFor(env);
  const { episode, parseFailure } = await promptEpisode(env, responder, actor.template, task, run);
  return { episode, responder: responder.id, parseFailure };
}
