// Environments by id. The support desk is registered by default; a user registers their own
// environment (anything implementing `Environment`) and the trainers find it the same way.
import { createSupportDesk } from "./support-desk/environment";
import type { Environment } from "./types";

// The registry stores environments of any state type; callers get back the shared interface.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEnvironment = Environment<any, any>;

export class EnvironmentRegistry {
  readonly #byId = new Map<string, AnyEnvironment>();

  register(env: AnyEnvironment): void {
    if (!/^[a-z0-9][a-z0-9-]{1,62}$/.test(env.id)) throw new Error(`environment id "${env.id}" must be lowercase letters, digits and dashes`);
    if (this.#byId.has(env.id)) throw new Error(`an environment with id "${env.id}" is already registered`);
    const problems = checkEnvironment(env);
    if (problems.length) throw new Error(`environment "${env.id}" is not usable: ${problems.join("; ")}`);
    this.#byId.set(env.id, env);
  }

  get(id: string): AnyEnvironment {
    const env = this.#byId.get(id);
    if (!env) throw new Error(`no environment "${id}" is registered (known: ${[...this.#byId.keys()].join(", ") || "none"})`);
    return env;
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  list(): { id: string; version: string; specDigest: string; actions: string[]; distributions: string[] }[] {
    return [...this.#byId.values()].map((e) => ({
      id: e.id,
      version: e.version,
      specDigest: e.specDigest,
      actions: e.actions.map((a) => a.name),
      distributions: e.distributions.map((d) => d.version),
    }));
  }
}

/** Structural checks a registry runs before accepting an environment. */
export function checkEnvironment(env: AnyEnvironment): string[] {
  const problems: string[] = [];
  if (env.actions.length < 2) problems.push("needs at least two actions");
  if (new Set(env.actions.map((a) => a.name)).size !== env.actions.length) problems.push("action names must be unique");
  const tools = new Set(env.tools.map((t) => t.name));
  for (const a of env.actions) if (a.tool && !tools.has(a.tool)) problems.push(`action ${a.name} calls tool ${a.tool}, which has no contract`);
  if (env.featureNames.length === 0) problems.push("needs at least one feature");
  if (env.distributions.length === 0) problems.push("needs at least one task distribution");
  if (!Number.isInteger(env.maxSteps) || env.maxSteps < 1) problems.push("maxSteps must be a positive integer");
  return problems;
}

/** The process-wide registry, with the built-in support desk and its text variant (support-desk-text). */
export const environments = new EnvironmentRegistry();
environments.register(createSupportDesk());
environments.register(createSupportDesk({ variant: "text" }));
