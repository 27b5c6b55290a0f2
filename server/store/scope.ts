// Who may see, serve and write which rollouts (issue 23): the store's side of the trust model.
// A rollout's `agent` and `phase` columns (from metadata lightgate.agent / lightgate.phase) decide it:
//   - gate work (phase locked_gate, canary, rollback, canary_stage) is seen and dequeued by runner identities
//     only, and written only by the identity that started its attempt (`store_attempts.served_by`);
//   - a key bound to agents sees and serves only rollouts of those agents; a bound non-runner key also sees
//     training rollouts no agent claims (its own untagged enqueues), a bound runner is handed only its agents';
//   - a key bound to phases ("training" = not a gate phase) is handed only those.
// In-process callers (the gate, the trainer, the dashboard's procedures) pass no viewer: they see everything.
import { placeholders } from "@/server/db/sql/program";
import { StoreForbiddenError } from "./errors";
import type { Cond } from "./query";
import { GATE_PHASES, isGatePhase, type ServePhase } from "./types";

export type StoreViewer = {
  /** Recorded in `served_by` on every attempt it starts: an API key id, or "anonymous-store". */
  identity: string;
  /** Agents it is bound to; null = every agent, and rollouts no agent claims. */
  agents: readonly string[] | null;
  /** With `agents` bound: also training rollouts that name no agent. */
  untagged: boolean;
  /** May see and serve gate work (runner identities). */
  gate: boolean;
  /** Phases it is bound to serve; null = all it may see. */
  phases: readonly ServePhase[] | null;
};

/** The gate phases as SQL literals: fixed strings, so they need no parameters. */
const GATE_LIST = GATE_PHASES.map((p) => `'${p}'`).join(", ");

/** SQL true for a training rollout (no gate phase) of store_rollouts' columns prefixed with `alias`. */
export const trainingWorkSql = (alias = "") => `(${alias}phase IS NULL OR ${alias}phase NOT IN (${GATE_LIST}))`;

/**
 * The rows of store_rollouts (columns prefixed with `alias`) this viewer may see; null = every row, so
 * an unbound runner's statements stay exactly as they were.
 */
export function viewerCond(v: StoreViewer | undefined, alias = ""): Cond | null {
  if (!v) return null;
  const phase = `${alias}phase`;
  const agent = `${alias}agent`;
  const training = trainingWorkSql(alias);
  const parts: string[] = [];
  const params: unknown[] = [];
  if (!v.gate) parts.push(training);
  if (v.phases) {
    const gates = v.gate ? v.phases.filter((p) => p !== "training") : [];
    const any = [...(v.phases.includes("training") ? [training] : []), ...(gates.length ? [`${phase} IN (${placeholders(gates.length)})`] : [])];
    parts.push(any.length ? `(${any.join(" OR ")})` : "1 = 0");
    params.push(...gates);
  }
  if (v.agents) {
    const own = v.agents.length ? `${agent} IN (${placeholders(v.agents.length)})` : "1 = 0";
    parts.push(v.untagged ? `(${own} OR (${agent} IS NULL AND ${training}))` : own);
    params.push(...v.agents);
  }
  return parts.length ? { sql: parts.join(" AND "), params } : null;
}

/** The same rule for one rollout in memory (start_attempt, enqueue checks). */
export function viewerSees(v: StoreViewer | undefined, r: { agent: string | null; phase: string | null }): boolean {
  if (!v) return true;
  const gate = isGatePhase(r.phase);
  if (gate && !v.gate) return false;
  if (v.phases && !v.phases.includes(gate ? (r.phase as ServePhase) : "training")) return false;
  if (v.agents) return r.agent !== null ? v.agents.includes(r.agent) : v.untagged && !gate;
  return true;
}

/**
 * A write into a rollout's attempt: gate work is written only by the identity that served the attempt
 * (training rollouts as before). Throws StoreForbiddenError (403) naming why; the program rolls back.
 */
export function checkServer(v: StoreViewer | undefined, rolloutId: string, r: { phase: string | null }, servedBy: string | null | undefined): void {
  if (!v || !isGatePhase(r.phase) || (servedBy != null && servedBy === v.identity)) return;
  throw new StoreForbiddenError(
    servedBy == null
      ? `rollout ${rolloutId} is gate work (${r.phase}) with no attempt served by ${v.identity}: only the identity that dequeued it may write it`
      : `rollout ${rolloutId} is gate work (${r.phase}) served by another identity: only the identity that dequeued it may write it`,
  );
}

/** A bound key may not create rollouts for agents it is not bound to. */
export function checkCreates(v: StoreViewer | undefined, agents: readonly (string | null)[]): void {
  if (!v?.agents) return;
  const foreign = agents.find((a) => a !== null && !v.agents!.includes(a));
  if (foreign != null) throw new StoreForbiddenError(`${v.identity} is bound to ${v.agents.join(", ")} and may not create rollouts for agent "${foreign}"`);
}
