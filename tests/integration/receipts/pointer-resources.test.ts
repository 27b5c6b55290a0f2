// A consumer fetches what a pointer names by its exact bytes, over real HTTP: `GET /v1/pointers/<agent>/
// approved-default/resources` answers the exact {resourcesId, version} the pointer names with its digest, even
// after a later candidate was written as a newer version under the same id; a pointed-to version the store
// does not hold, or whose bytes differ, answers an error that says so — never another version. Writing into
// a release lineage is judged: creating the approved default's missing id with other content is refused to
// any key, a key without `store:enqueue` for the agent is refused, and both refusals are in the audit log.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { registerCandidate } from "@/server/candidates/register";
import { canonicalJson, sha256Digest, type Digest } from "@/server/digest";
import { stage1For } from "@/server/gate/reference/common";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { serveMatrixApp, type MatrixServer } from "../../helpers/matrix-server";

const prompt = (template: string) => ({ p: { resource_type: "prompt_template", template, engine: "f-string" } });
const digestOf = (resources: unknown) => sha256Digest(canonicalJson(resources)) as Digest;
const system = { kind: "system" as const, id: "system", name: "test setup", grants: [] };
const trainer = { kind: "service" as const, id: "svc-algorithm", name: "trainer bot", grants: [{ role: "algorithm" as const, agent: null }] };

describeEachDialect("the pointer route serves its target's bytes", (dialect) => {
  let database: TestDatabase;
  let app: MatrixServer;
  const keys = { runner: "", algorithm: "", release_bot: "" };
  const APPROVED = prompt("approved {x}");
  const CANDIDATE = prompt("latest candidate {x}");

  const call = (path: string, key: string | null, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, { ...init, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.body ? { "content-type": "application/json" } : {}) } });
  const write = (id: string, resources: unknown, key = keys.algorithm) => call(`/v1/agl/resources/${id}`, key, { method: "POST", body: JSON.stringify(resources) });
  const refusals = (id: string) => database.db.auditEvent.findMany({ where: { action: "store.resources.write.refused", targetId: id }, orderBy: { seq: "asc" } });

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "ptrres");
    app = await serveMatrixApp(database);
    for (const role of ["runner", "algorithm", "release_bot"] as const) keys[role] = (await createApiKey(database.db, { name: `test ${role}`, role })).token;
    // The desk's approved default is rs-desk v1; a later candidate is written as v2 under the same id.
    expect((await write("rs-desk", APPROVED)).status).toBe(200);
    await adoptRootDefault(database, { agent: "desk", target: { resourceId: "rs-desk", version: 1, digest: digestOf(APPROVED) }, actor: system, reason: "test" });
    expect((await write("rs-desk", CANDIDATE)).status).toBe(200);
    const candidate = { resourceId: "rs-desk", version: 2, digest: digestOf(CANDIDATE) };
    await registerCandidate(database, { agent: "desk", resource: { resourcesId: "rs-desk", version: 2, digest: candidate.digest }, stage1: { ...stage1For("c", candidate), agent: "desk" }, actor: trainer });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it("answers the approved default's exact bytes and digest, not the newer version under its id", async () => {
    const latest = (await (await call("/v1/agl/resources/rs-desk", keys.runner)).json()) as { version: number };
    expect(latest.version).toBe(2);

    const res = await call("/v1/pointers/desk/approved-default/resources", keys.runner);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-lightgate-digest")).toBe(digestOf(APPROVED));
    const body = (await res.json()) as { resources_id: string; version: number; digest: string; resources: unknown; pointer: { digest: string; pointer: string } };
    expect(body).toMatchObject({ resources_id: "rs-desk", version: 1, digest: digestOf(APPROVED), resources: APPROVED });
    expect(body.pointer).toMatchObject({ pointer: "approved-default", digest: digestOf(APPROVED) });
    expect(digestOf(body.resources)).toBe(body.digest);

    const candidate = (await (await call("/v1/pointers/desk/latest-candidate/resources", keys.runner)).json()) as { version: number; resources: unknown };
    expect(candidate).toMatchObject({ version: 2, resources: CANDIDATE });
    // The name-only answer stays where it was.
    expect(await (await call("/v1/pointers/desk/approved-default", keys.release_bot)).json()).toMatchObject({ resourcesId: "rs-desk", version: 1, digest: digestOf(APPROVED) });
  });

  it("serves the bytes only to keys that may read resources (they hold credentials)", async () => {
    expect((await call("/v1/pointers/desk/approved-default/resources", null)).status).toBe(401);
    expect((await call("/v1/pointers/desk/approved-default/resources", "lgk_not-a-key")).status).toBe(401);
    const bot = await call("/v1/pointers/desk/approved-default/resources", keys.release_bot);
    expect(bot.status).toBe(403);
    expect(JSON.stringify(await bot.json())).toContain("store:write");
    expect((await call("/v1/pointers/desk/canary/resources", keys.runner)).status).toBe(404);
    expect((await call("/v1/pointers/desk/history/resources", keys.runner)).status).toBe(404);
  });

  it("says so when the pointed-to version is gone or its bytes differ, and serves nothing in its place", async () => {
    await adoptRootDefault(database, { agent: "ghost", target: { resourceId: "rs-ghost", version: 1, digest: digestOf(APPROVED) }, actor: system, reason: "test" });
    const gone = await call("/v1/pointers/ghost/approved-default/resources", keys.runner);
    expect(gone.status).toBe(404);
    const goneBody = (await gone.json()) as { error: string; message: string; resources?: unknown };
    expect(goneBody).toMatchObject({ error: "target_missing" });
    expect(goneBody.message).toMatch(/rs-ghost version 1/);
    expect(goneBody.resources).toBeUndefined();

    expect((await write("rs-drift", APPROVED)).status).toBe(200);
    await adoptRootDefault(database, { agent: "drift", target: { resourceId: "rs-drift", version: 1, digest: `sha256:${"0".repeat(64)}` }, actor: system, reason: "test" });
    const differs = await call("/v1/pointers/drift/approved-default/resources", keys.runner);
    expect(differs.status).toBe(409);
    const differsBody = (await differs.json()) as { error: string; message: string; resources?: unknown };
    expect(differsBody.error).toBe("digest_mismatch");
    expect(differsBody.message).toContain(digestOf(APPROVED));
    expect(differsBody.resources).toBeUndefined();
  });

  it("refuses to create the approved default's missing id with other content, and records it", async () => {
    const forged = await write("rs-ghost", prompt("mine now {x}"));
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { detail: string }).detail).toMatch(/ghost's approved default pointer names rs-ghost version 1/);
    expect(await (await call("/v1/agl/resources/rs-ghost", keys.runner)).json()).toBeNull();
    const [row] = await refusals("rs-ghost");
    expect(row).toMatchObject({ actorName: "test algorithm", targetType: "resources" });
    expect(JSON.parse(row!.after!)).toMatchObject({ agent: "ghost", version: 1 });
    // The exact bytes it names may fill it (a restore), and the pointer route then serves them.
    expect((await write("rs-ghost", APPROVED)).status).toBe(200);
    expect(await (await call("/v1/pointers/ghost/approved-default/resources", keys.runner)).json()).toMatchObject({ version: 1, resources: APPROVED });
  });

  it("refuses a key bound to another agent a write into this agent's lineage, and records it", async () => {
    const bound = async (name: string, agent: string) => (await createApiKey(database.db, { name, role: "algorithm", agents: [agent] })).token;
    const converter = await bound("converter algorithm", "unit-converter");
    const refused = await write("rs-desk", prompt("foreign {x}"), converter);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/agent desk's release lineage.*"store:enqueue" scope for agent "desk"/);
    expect(((await (await call("/v1/agl/resources/rs-desk", keys.runner)).json()) as { version: number }).version).toBe(2);
    const rows = await refusals("rs-desk");
    expect(rows.at(-1)).toMatchObject({ actorName: "converter algorithm" });
    expect(JSON.parse(rows.at(-1)!.after!)).toMatchObject({ agent: "desk" });

    // A key bound to the desk writes there; an id no lineage names takes any writer.
    const desk = await bound("desk algorithm", "desk");
    expect(((await (await write("rs-desk", prompt("desk {x}"), desk)).json()) as { version: number }).version).toBe(3);
    expect(((await (await write("rs-free", prompt("free {x}"), converter)).json()) as { version: number }).version).toBe(1);
  });
});
