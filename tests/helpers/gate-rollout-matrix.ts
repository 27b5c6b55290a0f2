// The route matrix extended to the gate's rollouts (issue 23): every store operation on a rollout of each gate
// phase × every API-key role, runner keys bound to its agent, to another agent and to other phases, a learner
// key bound to its agent, a key no one was given and nobody. Each cell's verdict is derived from the rules,
// never written per cell:
//   - the route's access (server/store/http/routes.ts `ROUTES[].access`; scopes from lib/auth/scopes.ts, held
//     for some agent);
//   - the trust model (ARCHITECTURE "Trust model"): gate work is seen and served by runner keys only, and by a
//     bound key only for the agents and phases it is bound to; an attempt of gate work is written only by the
//     identity that served it (`served_by`).
import { createApiKey } from "@/server/auth/api-keys";
import { grantsAllow, type RoleGrant, type Scope, type ServiceRole } from "@/lib/auth/scopes";
import type { Database } from "@/server/db/client";
import type { LightningStore } from "@/server/store";
import { ROUTES } from "@/server/store/http/routes";
import type { JsonObject } from "@/server/store/types";
import { keyHeaders, UNKNOWN_KEY } from "./matrix-client";
import { AGENT_X, AGENT_Y } from "./permission-matrix";

export const GATE_OPS = ["read by query", "read by id", "dequeue", "write span", "update attempt"] as const;
export type GateOp = (typeof GATE_OPS)[number];
const OP_ROUTE: Record<GateOp, { method: "GET" | "POST"; path: string }> = {
  "read by query": { method: "POST", path: "rollouts/search" },
  "read by id": { method: "GET", path: "rollouts/:rid" },
  dequeue: { method: "POST", path: "queues/rollouts/dequeue" },
  "write span": { method: "POST", path: "spans" },
  "update attempt": { method: "POST", path: "rollouts/:rid/attempts/:aid" },
};

/** allowed: it acted on the rollout (listed, returned, handed out, written); hidden: answered without it. */
export type GateVerdict = "allowed" | "hidden" | "refused" | "unauthorized";

type Binding = { agents?: string[]; phases?: string[] };
/** A caller as the matrix creates it: a role with a binding, or no key / a key no one was given. */
export type GateCaller = { label: string; role: ServiceRole | null; binding: Binding; token: string | null; id: string | null };

const KEYS: { label: string; role: ServiceRole; binding?: Binding }[] = [
  ...(["runner", "algorithm", "release_bot", "policy", "verifier"] as const).map((role) => ({ label: `${role} (unbound)`, role })),
  { label: `runner bound to ${AGENT_X}`, role: "runner", binding: { agents: [AGENT_X] } },
  { label: `runner bound to ${AGENT_Y}`, role: "runner", binding: { agents: [AGENT_Y] } },
  { label: `runner bound to ${AGENT_X}, training only`, role: "runner", binding: { agents: [AGENT_X], phases: ["training"] } },
  { label: `runner bound to ${AGENT_X}, locked gate only`, role: "runner", binding: { agents: [AGENT_X], phases: ["locked_gate"] } },
  { label: `algorithm bound to ${AGENT_X}`, role: "algorithm", binding: { agents: [AGENT_X] } },
];

/** The serving runner: every gate attempt the write cells target was dequeued by this one. */
export const SERVER_LABEL = "runner (unbound)";

export async function gateCallers(database: Database): Promise<GateCaller[]> {
  const callers: GateCaller[] = [
    { label: "nobody", role: null, binding: {}, token: null, id: null },
    { label: "invalid API key", role: null, binding: {}, token: UNKNOWN_KEY, id: null },
  ];
  for (const k of KEYS) {
    const { token, key } = await createApiKey(database.db, { name: `gate matrix ${k.label}`, role: k.role, ...(k.binding ?? {}) });
    callers.push({ label: k.label, role: k.role, binding: k.binding ?? {}, token, id: key.id });
  }
  return callers;
}

const grantsOf = (c: GateCaller): RoleGrant[] => (c.role ? (c.binding.agents ?? [null]).map((agent) => ({ role: c.role!, agent })) : []);
const holdsSomewhere = (c: GateCaller, scope: Scope) => grantsOf(c).some((g) => grantsAllow([g], scope, g.agent));

/** The trust model's rule: may `caller` see and serve gate work of `agent` in `phase`? */
export const servesGateWork = (c: GateCaller, agent: string, phase: string) =>
  c.role === "runner" && (!c.binding.agents || c.binding.agents.includes(agent)) && (!c.binding.phases || c.binding.phases.includes(phase));

export type GateTarget = { rolloutId: string; attemptId: string; agent: string; phase: string; servedBy: string };

export function gateVerdict(op: GateOp, c: GateCaller, target: Omit<GateTarget, "rolloutId" | "attemptId">): GateVerdict {
  if (!c.role) return "unauthorized";
  const { method, path } = OP_ROUTE[op];
  const access = ROUTES.find((r) => r.method === method && r.path === path)!.access;
  if (access !== "read" && access !== "public" && !holdsSomewhere(c, access)) return "refused";
  if (op === "write span" || op === "update attempt") return c.id === target.servedBy ? "allowed" : "refused";
  return servesGateWork(c, target.agent, target.phase) ? "allowed" : "hidden";
}

export function gateRolloutRequest(agent: string, phase: string): { input: JsonObject; mode: "test"; metadata: JsonObject } {
  return { input: { question: `held-out ${phase}` }, mode: "test", metadata: { "lightgate.agent": agent, "lightgate.phase": phase, "lightgate.gate_run": "gr-matrix", "lightgate.case": `case-${phase}` } };
}

function spanBody(t: GateTarget, seq: number) {
  const traceId = "0".repeat(31) + "1";
  const spanId = seq.toString(16).padStart(16, "0");
  return {
    rollout_id: t.rolloutId, attempt_id: t.attemptId, sequence_id: seq, trace_id: traceId, span_id: spanId, parent_id: null, name: "matrix",
    status: { status_code: "OK", description: null }, attributes: { "lightgate.passed": true }, events: [], links: [], start_time: 1, end_time: 2,
    context: { trace_id: traceId, span_id: spanId, is_remote: false, trace_state: {} }, parent: null, resource: { attributes: {}, schema_url: "" },
  };
}

let seq = 1000;

/** Sends `op` on `target` as `c`; what came back, as the verdicts name it. */
export async function gateOpOverHttp(baseUrl: string, op: GateOp, c: GateCaller, t: GateTarget): Promise<GateVerdict | `error: ${string}`> {
  const headers = c.token ? keyHeaders(c.token) : { "content-type": "application/json" };
  const send = (method: string, path: string, body?: unknown) => fetch(new URL(`/v1/agl/${path}`, baseUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const res =
    op === "read by query" ? await send("POST", "rollouts/search", { rollout_id_in: [t.rolloutId], limit: -1 })
    : op === "read by id" ? await send("GET", `rollouts/${t.rolloutId}`)
    : op === "dequeue" ? await send("POST", "queues/rollouts/dequeue", { limit: 100, worker_id: `matrix-${c.label}` })
    : op === "write span" ? await send("POST", "spans", spanBody(t, (seq += 1)))
    : await send("POST", `rollouts/${t.rolloutId}/attempts/${t.attemptId}`, { status: "running" });
  const text = await res.text();
  if (res.status === 401) return "unauthorized";
  if (res.status === 403 || (res.status === 404 && (op === "write span" || op === "update attempt"))) return "refused";
  if (!res.ok) return `error: ${res.status} ${text.slice(0, 200)}`;
  const body = JSON.parse(text) as unknown;
  if (op === "read by query") return ((body as { items: { rollout_id: string }[] }).items ?? []).some((i) => i.rollout_id === t.rolloutId) ? "allowed" : "hidden";
  if (op === "read by id") return (body as { rollout_id?: string } | null)?.rollout_id === t.rolloutId ? "allowed" : "hidden";
  if (op === "dequeue") return (body as { rollout_id: string }[]).some((i) => i.rollout_id === t.rolloutId) ? "allowed" : "hidden";
  return "allowed";
}

/** Gate work of every phase for AGENT_X, each dequeued over HTTP by `server` (its attempts are served by it). */
export async function servedGateWork(store: LightningStore, baseUrl: string, server: GateCaller, phases: readonly string[]): Promise<GateTarget[]> {
  const enqueued = await store.enqueueRollouts(phases.map((p) => gateRolloutRequest(AGENT_X, p)));
  const res = await fetch(new URL("/v1/agl/queues/rollouts/dequeue", baseUrl), { method: "POST", headers: keyHeaders(server.token!), body: JSON.stringify({ limit: 100, worker_id: "matrix-server" }) });
  const items = (await res.json()) as { rollout_id: string; attempt: { attempt_id: string } }[];
  return enqueued.map((r, i) => {
    const item = items.find((x) => x.rollout_id === r.rollout_id);
    if (!item) throw new Error(`the serving runner was not handed ${phases[i]} work (${res.status})`);
    return { rolloutId: r.rollout_id, attemptId: item.attempt.attempt_id, agent: AGENT_X, phase: phases[i]!, servedBy: server.id! };
  });
}

/** A fresh queued rollout of `phase` for one dequeue cell; whatever the caller did not take is cancelled after. */
export async function freshGateWork(store: LightningStore, phase: string): Promise<{ target: Omit<GateTarget, "servedBy"> & { servedBy: string }; clear(): Promise<void> }> {
  const [r] = await store.enqueueRollouts([gateRolloutRequest(AGENT_X, phase)]);
  return {
    target: { rolloutId: r!.rollout_id, attemptId: "", agent: AGENT_X, phase, servedBy: "" },
    async clear() {
      const queued = await store.queryRollouts({ status_in: ["queuing", "requeuing"], limit: -1 });
      for (const q of queued.items) await store.updateRollout(q.rollout_id, { status: "cancelled" });
    },
  };
}
