// Secrets in stored JSON never reach the browser: every dashboard store read answers with secret-named values
// masked (lib/json/secrets.ts), over real HTTP through the tRPC endpoint and the browser's client. Over REST,
// runners and algorithms read resources with their real values, and a release bot's key is refused them.
import { afterAll, beforeAll, expect, it } from "vitest";
import { makeTrpcClient } from "@/components/trpc/client";
import { MASK } from "@/lib/json/secrets";
import { makePerson, signIn } from "../../helpers/auth";
import { describeEachDialect } from "../../helpers/db";
import { makeSpan } from "../../helpers/store";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";
import { serveTrpc, type TrpcServer } from "../../helpers/trpc-server";

const SECRETS = ["sk-input", "k-nested", "t-metadata", "p-attempt", "Bearer s3cr3t", "w-secret", "sk-resource", "k-sampling", "sk-openai", "sk-rotated"];
// Sentry's default sensitive fields and credentials inside strings (issue 23): under `bearer`, `auth`, `pass`,
// `extra_body`, and a URL's userinfo or a Bearer token in any string value.
const MORE_SECRETS = ["b-bearer", "a-auth", "p-pass", "x-extra", "u-s3cr3t", "tok-in-text-42"];
const llm = (apiKey: string, sampling: Record<string, unknown>) => ({ resource_type: "llm", endpoint: "http://llm.local/v1", model: "m", api_key: apiKey, sampling_parameters: sampling });

describeEachDialect("secrets in stored JSON", (dialect) => {
  let srv: StoreServer;
  let web: TrpcServer;
  let client: ReturnType<typeof makeTrpcClient>;
  const ids = { rollout: "", attempt: "", span: "", resources: "", worker: "Worker-secrets" };

  beforeAll(async () => {
    srv = await startStoreServer(dialect, "secrets");
    web = await serveTrpc(srv.database);
    const viewer = await makePerson(srv.database, [{ role: "viewer", agent: null }]);
    const cookie = await signIn(srv.database, viewer.email, viewer.password);
    client = makeTrpcClient(web.url, () => ({ cookie }));

    const rollout = await srv.client.enqueueRollout(
      {
        api_key: "sk-input",
        nested: { key: "k-nested" },
        keyboard: "qwerty",
        bearer: "b-bearer",
        auth: { user: "u", secret_word: "a-auth" },
        db_pass: "p-pass",
        extra_body: { "x-provider-key": "x-extra" },
        endpoint: "https://svc:u-s3cr3t@llm.example.com/v1",
        log: "called with Authorization: Bearer tok-in-text-42",
      },
      { metadata: { token: "t-metadata" } },
    );
    ids.rollout = rollout.rollout_id;
    ids.attempt = (await srv.client.dequeue(ids.worker)).attempt.attempt_id;
    await srv.client.updateAttempt(ids.rollout, ids.attempt, { metadata: { password: "p-attempt" } });
    const span = makeSpan(ids.rollout, ids.attempt, 1, "llm", { attributes: { "http.request.header.authorization": "Bearer s3cr3t", "gen_ai.usage.input_tokens": 12 } });
    ids.span = span.span_id;
    await srv.client.addSpan(span);
    await srv.client.updateWorker(ids.worker, { secret: "w-secret", monkey: 1 });
    ids.resources = (await srv.client.addResources({ main: llm("sk-resource", { key: "k-sampling", openaiApiKey: "sk-openai", max_tokens: 5 }) })).resources_id;
    await srv.client.updateResources(ids.resources, { main: llm("sk-rotated", { key: "k-sampling", max_tokens: 6 }) });
  });
  afterAll(async () => {
    await web?.close();
    await srv?.close();
  });

  it("every dashboard store read masks them and keeps everything else", async () => {
    const r = { resources_id: ids.resources };
    const answers: Record<string, unknown> = {
      listRollouts: await client.store.listRollouts.query({}),
      listAttempts: await client.store.listAttempts.query({ rollout_id: ids.rollout }),
      querySpans: await client.store.querySpans.query({ rollout_id: ids.rollout }),
      getSpan: await client.store.getSpan.query({ rollout_id: ids.rollout, attempt_id: ids.attempt, span_id: ids.span }),
      listWorkers: await client.store.listWorkers.query({}),
      listResources: await client.store.listResources.query({}),
      listResourcesVersions: await client.store.listResourcesVersions.query(r),
      getResourcesVersion: await client.store.getResourcesVersion.query({ ...r, version: 1 }),
      diffResources: await client.store.diffResources.query({ ...r, from_version: 1, to_version: 2 }),
      listResourcesHistory: await client.store.listResourcesHistory.query(r),
      listResourcesSummaries: await client.store.listResourcesSummaries.query({}),
    };
    for (const [procedure, answer] of Object.entries(answers)) {
      const text = JSON.stringify(answer);
      for (const secret of [...SECRETS, ...MORE_SECRETS]) expect(text, `${procedure} shows ${secret}`).not.toContain(secret);
    }
    const [rollout] = (answers.listRollouts as { items: { input: Record<string, unknown> }[] }).items;
    expect(rollout!.input).toEqual({
      api_key: MASK,
      nested: { key: MASK },
      keyboard: "qwerty",
      bearer: MASK,
      auth: MASK,
      db_pass: MASK,
      extra_body: MASK,
      endpoint: `https://${MASK}@llm.example.com/v1`,
      log: `called with Authorization: Bearer ${MASK}`,
    });
    const span = answers.getSpan as { attributes: Record<string, unknown> };
    expect(span.attributes).toMatchObject({ "http.request.header.authorization": MASK, "gen_ai.usage.input_tokens": 12 });
    const v1 = answers.getResourcesVersion as { resources: { main: { sampling_parameters: Record<string, unknown> } } };
    expect(v1.resources.main.sampling_parameters).toEqual({ key: MASK, openaiApiKey: MASK, max_tokens: 5 });
    const diff = answers.diffResources as { entries: { path: string; secret: boolean }[] };
    expect(diff.entries.find((e) => e.path === "main.api_key")).toMatchObject({ secret: true });
  });

  it("over REST, runners and algorithms read the real values; a release bot is refused them", async () => {
    const get = (path: string, key: string) => fetch(`${srv.url}/v1/agl${path}`, { headers: { authorization: `Bearer ${key}` } });
    for (const role of ["runner", "algorithm"] as const) {
      const res = await get(`/resources/${ids.resources}`, srv.keys[role]);
      expect(res.status, role).toBe(200);
      expect(((await res.json()) as { resources: { main: { api_key: string } } }).resources.main.api_key, role).toBe("sk-rotated");
    }
    for (const path of ["/resources", "/resources/latest", `/resources/${ids.resources}`]) {
      const res = await get(path, srv.keys.release_bot);
      expect(res.status, path).toBe(403);
      const body = await res.text();
      expect(body, path).toContain("store:write");
      for (const secret of SECRETS) expect(body).not.toContain(secret);
    }
    // The bot still reads what it needs over REST.
    expect((await get("/statistics", srv.keys.release_bot)).status).toBe(200);
  });
});
