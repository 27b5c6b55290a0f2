// The consumer example (examples/consumer/fetch-approved-default.ts) as its own process against a real
// server: it loads the approved default's exact bytes — not the newer candidate written under the same id —
// and refuses to load when the bytes it receives do not hash to the digest the pointer names (a tampering
// hop between it and the server, or a digest it was told to expect).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { canonicalJson, sha256Digest } from "@/server/digest";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { createTestDatabase, describeEachDialect, type TestDatabase } from "../../helpers/db";
import { listen } from "../../helpers/next-like";
import { serveMatrixApp, type MatrixServer } from "../../helpers/matrix-server";
import { startScript } from "../../helpers/script-process";

const EXAMPLE = path.resolve(import.meta.dirname, "../../../examples/consumer/fetch-approved-default.ts");
const prompt = (template: string) => ({ p: { resource_type: "prompt_template", template, engine: "f-string" } });
const digestOf = (resources: unknown) => sha256Digest(canonicalJson(resources));

/** A hop that forwards to `target` and rewrites one word of every answer's body, headers kept. */
async function tamperingProxy(target: string) {
  const server = http.createServer((req, res) => {
    fetch(`${target}${req.url}`, { headers: { authorization: req.headers.authorization ?? "" } })
      .then(async (upstream) => {
        const body = (await upstream.text()).replace("approved {x}", "tampered {x}");
        res.writeHead(upstream.status, { "content-type": "application/json", "x-lightgate-digest": upstream.headers.get("x-lightgate-digest") ?? "" });
        res.end(body);
      })
      .catch(() => res.writeHead(502).end());
  });
  return listen(server);
}

describeEachDialect("the consumer example", (dialect) => {
  let database: TestDatabase;
  let app: MatrixServer;
  let key: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lightgate-consumer-"));
  const APPROVED = prompt("approved {x}");

  async function runExample(base: string, args: string[]) {
    const p = startScript(EXAMPLE, args, { ...process.env, LIGHTGATE_URL: base, LIGHTGATE_API_KEY: key });
    return { code: await p.exited, output: p.output() };
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect, "consumer");
    app = await serveMatrixApp(database);
    key = (await createApiKey(database.db, { name: "prod consumer", role: "runner" })).token;
    const algorithm = (await createApiKey(database.db, { name: "trainer", role: "algorithm" })).token;
    const put = (resources: unknown) =>
      fetch(`${app.url}/v1/agl/resources/rs-consumer`, { method: "POST", headers: { authorization: `Bearer ${algorithm}`, "content-type": "application/json" }, body: JSON.stringify(resources) });
    expect((await put(APPROVED)).status).toBe(200);
    await adoptRootDefault(database, { agent: "desk", target: { resourceId: "rs-consumer", version: 1, digest: digestOf(APPROVED) }, actor: { kind: "system", id: "system", name: "setup", grants: [] }, reason: "test" });
    expect((await put(prompt("newer candidate {x}"))).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("loads the approved default's exact bytes, checked against the pointer's digest", async () => {
    const out = path.join(dir, `ok-${dialect}.json`);
    const { code, output } = await runExample(app.url, ["desk", "--out", out, "--expect", digestOf(APPROVED)]);
    expect(code, output).toBe(0);
    expect(JSON.parse(output)).toMatchObject({ loaded: true, resources_id: "rs-consumer", version: 1, digest: digestOf(APPROVED) });
    expect(JSON.parse(fs.readFileSync(out, "utf8"))).toEqual(APPROVED);
  }, 60_000);

  it("refuses to load bytes that do not hash to the named digest", async () => {
    const proxy = await tamperingProxy(app.url);
    try {
      const out = path.join(dir, `tampered-${dialect}.json`);
      const tampered = await runExample(proxy.url, ["desk", "--out", out]);
      expect(tampered.code, tampered.output).toBe(2);
      expect(tampered.output).toMatch(/refusing to load desk's approved default: its bytes hash to sha256:[0-9a-f]{64}, but the pointer names/);
      expect(fs.existsSync(out)).toBe(false);
    } finally {
      await proxy.close();
    }
    const expected = await runExample(app.url, ["desk", "--expect", `sha256:${"0".repeat(64)}`]);
    expect(expected.code, expected.output).toBe(2);
    expect(expected.output).toContain("but --expect names");
    const none = await runExample(app.url, ["nobody-agent"]);
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/answered 404: nobody-agent has no approved default yet/);
  }, 60_000);
}, { postgresql: "full-run" });
