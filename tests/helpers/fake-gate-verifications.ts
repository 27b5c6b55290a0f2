// A stand-in for the gate API's two verification routes (GET /v1/gate/verifications/pending, POST
// /v1/gate/verifications) as ISSUE13-DESIGN.md fixes them, over the real tables: canary tasks are
// GateRunTask rows, outcomes the store's rollouts, cases the published GateDatasetCase rows, records
// GateVerification rows. Only until the gate API's real routes are merged into this branch; the verifier
// under test talks to it over real HTTP with a real `verifier` key, exactly as it will to the real ones.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { actorCan } from "@/server/auth/actor";
import { authenticateApiKey } from "@/server/auth/api-keys";
import type { Database } from "@/server/db/client";
import { newId } from "@/server/digest";
import type { LightningStore } from "@/server/store";

export type FakeGate = { url: string; posts: unknown[]; close(): Promise<void> };

export async function startFakeGate(database: Database, store: LightningStore, canaryDatasetId: string): Promise<FakeGate> {
  const posts: unknown[] = [];
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const pending = async () => {
    const tasks = await database.db.gateRunTask.findMany({ where: { phase: { in: ["canary", "canary_stage"] } }, orderBy: { enqueuedAt: "asc" } });
    const verified = new Set((await database.db.gateVerification.findMany({ select: { rolloutId: true } })).map((v) => v.rolloutId));
    const out = [];
    for (const t of tasks) {
      if (verified.has(t.rolloutId)) continue;
      const rollout = await store.getRollout(t.rolloutId);
      if (!rollout || !["succeeded", "failed"].includes(rollout.status)) continue;
      const attempt = (await store.queryAttempts(t.rolloutId, { limit: -1 })).items.at(-1) ?? null;
      const c = await database.db.gateDatasetCase.findUnique({ where: { datasetId_caseId: { datasetId: canaryDatasetId, caseId: t.caseId } } });
      out.push({ rollout_id: t.rolloutId, gate_run_id: t.gateRunId, case_id: t.caseId, input: rollout.input, expected: c?.expected ? JSON.parse(c.expected) : null, attempt: attempt && { status: attempt.status, metadata: attempt.metadata } });
    }
    return out;
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const actor = token ? await authenticateApiKey(database.db, token) : null;
      if (!actor) return json(res, 401, { error: "unauthenticated", message: "an API key is required" });
      if (!actorCan(actor, "canary:verify")) return json(res, 403, { error: "forbidden", message: "needs canary:verify" });
      const url = new URL(req.url ?? "/", "http://fake");
      if (req.method === "GET" && url.pathname === "/v1/gate/verifications/pending") return json(res, 200, await pending());
      if (req.method === "POST" && url.pathname === "/v1/gate/verifications") {
        let text = "";
        for await (const chunk of req) text += chunk;
        const body = JSON.parse(text) as { rollout_id: string; method: string; matched: boolean; expected?: string; observed?: string; note?: string };
        posts.push(body);
        const task = await database.db.gateRunTask.findUnique({ where: { rolloutId: body.rollout_id } });
        if (!task) return json(res, 400, { error: "bad_request", field: "rollout_id", message: "rollout_id: not a canary task of a gate run" });
        if (await database.db.gateVerification.findUnique({ where: { rolloutId: body.rollout_id } })) return json(res, 409, { error: "conflict", message: "already verified" });
        const row = await database.db.gateVerification.create({
          data: { id: newId("gv"), rolloutId: body.rollout_id, gateRunId: task.gateRunId, method: body.method, matched: body.matched, expected: body.expected ?? null, observed: body.observed ?? null, note: body.note ?? null, verifierId: actor.id, verifierKind: actor.kind, createdAt: new Date() },
        });
        return json(res, 201, { verification_id: row.id });
      }
      return json(res, 404, { error: "not_found", message: "no such route in the fake" });
    })().catch((e: Error) => json(res, 500, { error: "internal", message: e.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
