// A world for the gate API over real HTTP: a fresh database, the production server's listener (store fast
// path + the gate API's fast path, scripts/serve.ts's routing), a real API key per service role, people
// signed in through better-auth, an exact parent in the store and an evaluator in the registry.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import type { RoleGrant, ServiceRole } from "@/lib/auth/scopes";
import type { Dialect } from "@/server/db/config";
import { serveGateApi } from "@/server/gate-api/http";
import { createLightgateServer } from "@/server/process/server-listener";
import { publishRegistryEntry } from "@/server/receipts/registries";
import { createStore, type LightningStore } from "@/server/store";
import { createStoreHandler } from "@/server/store/http/handler";
import { openRowCounter, type RowCounter } from "../hostile/row-counts";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { makePerson, signIn, SYSTEM } from "./auth";
import { createTestDatabase, type TestDatabase } from "./db";
import { browserHeaders, keyHeaders, serviceKeys } from "./matrix-client";

export const AGENT = "foreign-agent";
export const PARENT_ID = "foreign-prompt";
export const EVALUATOR = { id: "foreign-exam", version: "3" };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire JSON is untyped, as for a Python client; tests assert on it
export type Answer = { status: number; body: any };
export type Who = ServiceRole | { headers: Record<string, string> };

export type GateWorld = {
  database: TestDatabase;
  store: LightningStore;
  url: string;
  keys: Map<ServiceRole, string>;
  rows: RowCounter;
  parent: { resources_id: string; version: number; digest: string };
  /** A person signed in with these grants (headers a same-origin browser sends). */
  person(grants: RoleGrant[], name?: string): Promise<{ id: string; headers: Record<string, string> }>;
  call(who: Who, method: string, path: string, body?: unknown): Promise<Answer>;
  close(): Promise<void>;
};

export async function gateWorld(dialect: Dialect, label: string): Promise<GateWorld> {
  const database = await createTestDatabase(dialect, label);
  const store = createStore(database, { scanDebounceMs: 0 });
  const handler = createStoreHandler({ store, db: database.db, audit: database, allowAnonymous: false });
  // What Next.js would serve: only the health check, which the hostile runner polls.
  const notNext = (req: http.IncomingMessage, res: http.ServerResponse) =>
    void (req.url === "/api/health" ? res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}') : res.writeHead(404).end("not served here"));
  const server = createLightgateServer(handler, notNext, { gateApi: (request) => serveGateApi(database, request) });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keys = await serviceKeys(database);
  const put = await store.updateResources(PARENT_ID, { prompt: { resource_type: "prompt_template", template: "Answer {question} briefly.", engine: "f-string" } });
  const v = (await store.resourcesVersion(PARENT_ID, put.version))!;
  await publishRegistryEntry(database, { kind: "evaluator", name: EVALUATOR.id, agent: "*", version: EVALUATOR.version, body: { scoring: "runner_reward" }, actor: SYSTEM });
  // The receipt key exists, as on any server past its first audit checkpoint: a refusal's audit record that
  // closes a checkpoint then makes no key mid-test (the row counts leave refusal records out).
  await receiptSigningKey(database.db);
  const rows = await openRowCounter(database.url);
  const headersOf = (who: Who) => (typeof who === "string" ? keyHeaders(keys.get(who)!) : who.headers);
  return {
    database,
    store,
    url,
    keys,
    rows,
    parent: { resources_id: PARENT_ID, version: v.version, digest: v.digest },
    async person(grants, name) {
      const p = await makePerson(database, grants, name);
      return { id: p.id, headers: browserHeaders(await signIn(database, p.email, p.password)) };
    },
    async call(who, method, path, body) {
      const raw = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
      const res = await fetch(new URL(path, url), { method, headers: { ...headersOf(who), ...(raw === undefined ? {} : { "content-type": "application/json" }) }, body: raw });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: the test sees the text
      }
      return { status: res.status, body: parsed };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rows.close();
      await store.close();
      await database.drop();
    },
  };
}

export type CaseSpec = { id: string; input: unknown; family?: string; protected?: boolean; expected?: unknown };

export function cases(n: number, prefix = "c"): CaseSpec[] {
  return Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i}`, input: { question: `${prefix} question ${i}` }, family: i % 4 === 0 ? "refunds" : "general", protected: i % 4 === 0, expected: { answer: `${prefix} answer ${i}` } }));
}

/**
 * Publishes a held-out and a canary dataset as the policy service; their ids. `heldOut`: the held-out set's
 * size — 20 is the default policy's floor for check 4, for a run that must be able to pass it.
 */
export async function publishExams(world: GateWorld, tag = "exam", heldOut = 12): Promise<{ heldOut: string; canary: string }> {
  const held = await world.call("policy", "POST", "/v1/gate/datasets", { name: `${tag} held-out`, kind: "held_out", cases: cases(heldOut, `${tag}-h`) });
  const canary = await world.call("policy", "POST", "/v1/gate/datasets", { name: `${tag} canary`, kind: "canary", cases: cases(6, `${tag}-c`) });
  if (held.status !== 201 || canary.status !== 201) throw new Error(`publishing exams: ${JSON.stringify([held.body, canary.body])}`);
  return { heldOut: held.body.dataset_id, canary: canary.body.dataset_id };
}

/** A complete, valid declaration body (snake_case, as a Python client sends it). */
export function declaration(world: GateWorld, exams: { heldOut: string; canary: string }, overrides: Record<string, unknown> = {}) {
  return {
    agent: AGENT,
    parent: { resources_id: world.parent.resources_id, version: world.parent.version },
    training_data: { resources_ids: ["foreign-apo-beam"] },
    held_out_dataset: exams.heldOut,
    canary_dataset: exams.canary,
    evaluator: EVALUATOR,
    algorithm: { name: "apo", config: { beam_width: 4, rounds: 3 } },
    code_revision: "0a1b2c3d4e5f",
    scope: { tasks: ["faq"], tools: ["search_kb"], destinations: [] },
    expected_evidence: { span_families: ["llm.call", "reward"], retry_budget: { expected_resamples_per_rollout: 0, unexpected_retries: 2 }, protected_families: [{ family: "refunds", max_regressions: 0 }] },
    canary_boundary: { max_tasks: 4, max_wall_time_seconds: 300, allowed_tools: ["search_kb"], max_cost_usd: 1, allowed_side_effects: [] },
    approvers: { canary: { actor_ids: [], roles: ["canary_approver"] }, default: { actor_ids: [], roles: ["release_approver"] } },
    ...overrides,
  };
}
