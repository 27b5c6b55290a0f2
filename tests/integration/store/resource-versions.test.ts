// Published resources versions are immutable and fetchable by their exact version or digest, over real HTTP:
// `GET /v1/agl/resources/<id>?version=N` / `?digest=sha256:<hex>` answer exactly that version (404 naming
// what is missing, 422 for a malformed selector); without a query the answer stays the reference's latest.
// A write always makes a new version, and the database refuses to rewrite a stored one.
import { afterAll, beforeAll, expect, it } from "vitest";
import { canonicalJson, sha256Digest } from "@/server/digest";
import { describeEachDialect } from "../../helpers/db";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

const prompt = (template: string) => ({ p: { resource_type: "prompt_template", template, engine: "f-string" } });
const digestOf = (resources: unknown) => sha256Digest(canonicalJson(resources));
const WIRE_KEYS = ["create_time", "resources", "resources_id", "update_time", "version"];

describeEachDialect("resources versions over HTTP", (dialect) => {
  let srv: StoreServer;
  const A = prompt("first {x}");
  const B = prompt("second {x}");
  const get = (path: string) => fetch(`${srv.url}/v1/agl${path}`, { headers: { authorization: `Bearer ${srv.keys.runner}` } });

  beforeAll(async () => {
    srv = await startStoreServer(dialect, "rsver");
    await srv.client.updateResources("rs-exact", A);
    await srv.client.updateResources("rs-exact", B);
  }, 60_000);
  afterAll(() => srv?.close());

  it("answers exactly the version asked for, by number or by digest, with its digest", async () => {
    const v1 = await get("/resources/rs-exact?version=1");
    expect(v1.status).toBe(200);
    expect(v1.headers.get("x-lightgate-digest")).toBe(digestOf(A));
    const body = (await v1.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ resources_id: "rs-exact", version: 1, resources: A, digest: digestOf(A) });
    expect(digestOf(body.resources)).toBe(body.digest);

    const byDigest = await get(`/resources/rs-exact?digest=${digestOf(A)}`);
    expect(byDigest.status).toBe(200);
    expect(await byDigest.json()).toMatchObject({ version: 1, resources: A, digest: digestOf(A) });
    const both = await get(`/resources/rs-exact?version=2&digest=${digestOf(B)}`);
    expect(await both.json()).toMatchObject({ version: 2, resources: B });
  });

  it("without a query answers the latest in the reference's shape, its digest in a header", async () => {
    const res = await get("/resources/rs-exact");
    expect(res.headers.get("x-lightgate-digest")).toBe(digestOf(B));
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(WIRE_KEYS);
    expect(body).toMatchObject({ version: 2, resources: B });
    expect(await (await get("/resources/rs-nothing")).json()).toBeNull();
  });

  it("answers 404 naming what is missing, never another version", async () => {
    const cases: [string, RegExp][] = [
      ["/resources/rs-exact?version=3", /rs-exact has no version 3/],
      [`/resources/rs-exact?digest=sha256:${"0".repeat(64)}`, /rs-exact has no version with digest sha256:0{64}/],
      [`/resources/rs-exact?version=1&digest=${digestOf(B)}`, /version 1 of rs-exact has digest sha256:[0-9a-f]{64}, not sha256:/],
      ["/resources/rs-nothing?version=1", /no resources id rs-nothing/],
    ];
    for (const [path, detail] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      const body = (await res.json()) as { detail: string; resources?: unknown };
      expect(body.detail, path).toMatch(detail);
      expect(body.resources, path).toBeUndefined();
    }
  });

  it("refuses a malformed version or digest with 422 naming the field", async () => {
    for (const [query, field] of [
      ["version=0", "version"],
      ["version=-1", "version"],
      ["version=1.5", "version"],
      ["version=abc", "version"],
      ["version=99999999999", "version"],
      ["version=1&version=2", "version"],
      ["digest=abc", "digest"],
      [`digest=md5:${"0".repeat(32)}`, "digest"],
      [`digest=sha256:${"0".repeat(63)}`, "digest"],
    ]) {
      const res = await get(`/resources/rs-exact?${query}`);
      expect(res.status, query).toBe(422);
      expect(JSON.stringify(await res.json()), query).toContain(`query.${field}`);
    }
  });

  it("a write makes a new version; the database refuses to rewrite a stored one", async () => {
    const C = prompt("third {x}");
    expect(await srv.client.updateResources("rs-exact", C)).toMatchObject({ version: 3 });
    expect(await (await get("/resources/rs-exact?version=1")).json()).toMatchObject({ resources: A });

    const raw = (sql: string) => srv.database.db.$executeRawUnsafe(sql);
    const forged = JSON.stringify(prompt("forged"));
    await expect(raw(`UPDATE store_resources_versions SET resources = '${forged}' WHERE resources_id = 'rs-exact' AND version = 1`)).rejects.toThrow(/immutable/);
    await expect(raw(`UPDATE store_resources_versions SET digest = '${"0".repeat(64)}' WHERE resources_id = 'rs-exact' AND version = 1`)).rejects.toThrow(/immutable/);
    // The head row may only move to the next version: rewriting the body under the same number is refused.
    await expect(raw(`UPDATE store_resources SET resources = '${forged}' WHERE resources_id = 'rs-exact'`)).rejects.toThrow(/immutable/);
    const v1 = (await (await get("/resources/rs-exact?version=1")).json()) as { resources: unknown; digest: string };
    expect(v1.resources).toEqual(A);
    expect(v1.digest).toBe(digestOf(A));
    expect(await (await get("/resources/rs-exact")).json()).toMatchObject({ version: 3, resources: C });
  });

  it("refuses writes to the gate's pins and records the refusal", async () => {
    const res = await fetch(`${srv.url}/v1/agl/resources/lg-pin-0123456789abcdef`, { method: "POST", headers: { authorization: `Bearer ${srv.keys.algorithm}`, "content-type": "application/json" }, body: JSON.stringify(A) });
    expect(res.status).toBe(403);
    expect(await (await get("/resources/lg-pin-0123456789abcdef")).json()).toBeNull();
    const rows = await srv.database.db.auditEvent.findMany({ where: { action: "store.resources.write.refused", targetId: "lg-pin-0123456789abcdef" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actorName).toBe("test algorithm");
  });
});
