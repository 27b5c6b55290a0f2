// What production consumers and auditors read over HTTP: the approved default (never the latest candidate,
// a clear 404 when none), pointer history at a time, and a receipt as a DSSE-signed in-toto statement that
// verifies offline with the public key the server publishes.
import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { registerCandidate } from "@/server/candidates/register";
import { AGENT, resourceRef, stage1For } from "@/server/gate/reference/common";
import { verifyReceipt } from "@/server/gate/export/verify-receipt";
import { verifyStoredSignature } from "@/server/auth/verify-offline";
import { handlePointerRequest, handlePublicKeyRequest, handleReceiptRequest } from "@/server/receipts/http";
import { seedReferenceDemo } from "@/server/reference/reference-demo";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";

const trainer = { kind: "service" as const, id: "svc-algorithm", name: "trainer bot", grants: [{ role: "algorithm" as const, agent: null }] };

describeEachDialect("pointer and receipt HTTP", (dialect) => {
  let database: TestDatabase;
  let token: string;
  const get = (path: string, auth = true) => new Request(`http://lightgate.test${path}`, { headers: auth ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "ptr");
    token = (await createApiKey(database.db, { name: "prod consumer", role: "runner" })).token;
  }, 60_000);
  afterAll(() => database?.drop());

  it("answers 404 for an agent with candidates but no approved default, never the latest candidate", async () => {
    const r = resourceRef("only-candidate", { policy: { w: 9 } });
    await registerCandidate(database, { agent: "fresh-agent", resource: { resourcesId: r.resourceId, version: 1, digest: r.digest }, stage1: { ...stage1For("x", r), agent: "fresh-agent" }, actor: trainer });
    const latest = await handlePointerRequest(database, get("/v1/pointers/fresh-agent/latest-candidate"), "fresh-agent", "latest-candidate");
    expect(latest.status).toBe(200);
    expect(((await latest.json()) as { digest: string }).digest).toBe(r.digest);
    const res = await handlePointerRequest(database, get("/v1/pointers/fresh-agent/approved-default"), "fresh-agent", "approved-default");
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.message).toMatch(/no approved default/);
    expect(JSON.stringify(body)).not.toContain(r.digest);
    expect((await handlePointerRequest(database, get("/v1/pointers/fresh-agent/approved-default", false), "fresh-agent", "approved-default")).status).toBe(401);
  });

  it("serves the approved default and its history at a time; exports a receipt that verifies offline", async () => {
    const seeded = await seedReferenceDemo(database, { only: ["A"] });
    const approved = (await (await handlePointerRequest(database, get(`/v1/pointers/${AGENT}/approved-default`), AGENT, "approved-default")).json()) as { digest: string; candidateId: string | null };
    const latest = (await (await handlePointerRequest(database, get(`/v1/pointers/${AGENT}/latest-candidate`), AGENT, "latest-candidate")).json()) as { digest: string; candidateId: string };
    expect(latest.candidateId).toBe(seeded[0]!.candidateId);
    expect(approved.digest).not.toBe(latest.digest);

    const before = await handlePointerRequest(database, get(`/v1/pointers/${AGENT}/history?at=2000-01-01T00:00:00Z`), AGENT, "history");
    expect(await before.json()).toMatchObject({ approvedDefault: null, latestCandidate: null });
    const now = (await (await handlePointerRequest(database, get(`/v1/pointers/${AGENT}/history?at=${new Date().toISOString()}`), AGENT, "history")).json()) as { approvedDefault: { digest: string } };
    expect(now.approvedDefault.digest).toBe(approved.digest);
    expect((await handlePointerRequest(database, get(`/v1/pointers/${AGENT}/history?at=yesterday`), AGENT, "history")).status).toBe(400);

    const envelope = await (await handleReceiptRequest(database, get(`/v1/receipts/${latest.candidateId}`), latest.candidateId)).json();
    const pem = await (await handlePublicKeyRequest(database, get("/v1/receipts/public-key", false))).text();
    const verified = await verifyReceipt(envelope, [createPublicKey(pem)], verifyStoredSignature);
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
    expect(verified.statement?.predicate.chain.map((l) => l.kind)).toEqual(["stage1", "stage2", "stage3", "approval"]);
    expect((await handleReceiptRequest(database, get("/v1/receipts/cand-nope"), "cand-nope")).status).toBe(404);
  }, 120_000);
});
