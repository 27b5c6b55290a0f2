// A runner executing prompt-template resources against an OpenAI-compatible endpoint (a local fake with canned
// replies): the prompt is rendered with the ticket's text into the system message, acting is at temperature 0,
// a 429 is retried, each reply's action becomes a step span, and a reply naming no action is reported on the
// attempt — never mapped to an action. Prompts are found as Agent Lightning writes them (any entry name, no
// digest); engines this runner cannot render and ambiguous resources fail the attempt, saying why.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rewardValueOf } from "@/server/gate/evidence/spans";
import { Runner } from "@/server/runner/runner";
import { BUILTIN_SCORER } from "@/server/trainers/prompt/builtin";
import { startStoreServer, type StoreServer } from "../../helpers/store-server";

type Body = { model: string; messages: { role: string; content: string }[]; temperature: number };

describe("a runner executes prompt resources", () => {
  let s: StoreServer;
  let fake: http.Server;
  let base = "";
  const requests: { auth: string | undefined; body: Body; status: number }[] = [];

  // Answer once, then close; a prompt saying MUTE gets a refusal that names no action.
  function reply(body: Body): string {
    const system = body.messages[0]!.content;
    if (system.includes("MUTE")) return "I would rather not say.";
    const done = body.messages[1]!.content.split("\n").find((l) => l.startsWith("Done so far")) ?? "";
    return done.includes("answered") ? "close_ticket" : "I will provide_direct_answer.";
  }

  beforeAll(async () => {
    s = await startStoreServer("sqlite", "prompt-runner");
    fake = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        const body = JSON.parse(data) as Body;
        const status = requests.length === 0 ? 429 : 200;
        requests.push({ auth: req.headers.authorization, body, status });
        if (status === 429) return void res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "10" }).end(JSON.stringify({ error: { message: "slow down" } }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: body.model, choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply(body) } }] }));
      });
    });
    await new Promise<void>((r) => fake.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  }, 60_000);
  afterAll(async () => {
    await new Promise((r) => fake?.close(r));
    await s?.close();
  });

  const prompt = (template: string, engine = "f-string") => ({ resource_type: "prompt_template", template, engine });
  async function enqueue(resourcesId: string, seeds: string[]) {
    const rs = await s.store.enqueueRollouts(seeds.map((task_seed) => ({ input: { kind: "lightgate.episode", environment: "support-desk", distribution: "v2", task_seed, options: {} }, mode: "train" as const, resources_id: resourcesId })));
    return rs.map((r) => r.rollout_id);
  }
  async function drain(runner: Runner) {
    while (await runner.runOnce());
  }
  const attemptOf = async (id: string) => (await s.store.queryAttempts(id, { limit: -1 })).items.at(-1)!;
  const spansOf = async (id: string) => (await s.store.querySpans({ rollout_id: id, attempt_id: "latest", limit: -1 })).items;

  it("renders the prompt with the ticket, acts on each reply, retries a 429, reports an unparseable reply", async () => {
    // As an Agent Lightning algorithm writes it: its own entry name, no digest.
    await s.store.updateResources("rs-llm", { main_prompt: prompt("You are a careful support agent.\n{ticket}\nPick one of: {actions}") });
    await s.store.updateResources("rs-mute", { main_prompt: prompt("MUTE\n{ticket}") });
    const ok = await enqueue("rs-llm", ["p/0", "p/1", "p/2"]);
    const [mute] = await enqueue("rs-mute", ["p/3"]);
    const runner = new Runner({ url: s.url, apiKey: s.keys.runner, workerId: "llm-runner", llm: { endpoint: { baseUrl: base, model: "fake-model", apiKey: "sk-test" }, limits: { maxRetries: 2 } } });
    await drain(runner);

    expect(requests[0]!.status).toBe(429);
    expect(JSON.stringify(requests[1]!.body)).toBe(JSON.stringify(requests[0]!.body));
    expect(requests.every((q) => q.auth === "Bearer sk-test" && q.body.model === "fake-model" && q.body.temperature === 0)).toBe(true);
    const first = requests[0]!.body.messages;
    expect(first[0]).toMatchObject({ role: "system", content: expect.stringMatching(/^You are a careful support agent\.\nFrom: .*\nCustomer: .*[\s\S]*\nPick one of: ask_clarifying_question, /) });
    expect(first[1]!.content).toMatch(/^Ticket:\n/);
    expect(first[1]!.content).not.toMatch(/intent:|flag:/);

    for (const id of ok) {
      const attempt = await attemptOf(id);
      expect(attempt.status).toBe("succeeded");
      expect(attempt.metadata).toMatchObject({ "lightgate.responder": `openai-compatible:fake-model@${base}` });
      expect(attempt.metadata?.["lightgate.parse_failure"]).toBeUndefined();
      const spans = await spansOf(id);
      expect(spans.filter((x) => x.name === "agent.step").map((x) => x.attributes["lightgate.step.action"])).toEqual(["provide_direct_answer", "close_ticket"]);
      expect(spans.some((x) => rewardValueOf(x) !== null)).toBe(true);
    }
    // The refusal ends the episode unreached: the attempt says what the model replied, and no step was taken.
    const muted = await attemptOf(mute!);
    expect(muted.status).toBe("succeeded");
    expect(muted.metadata).toMatchObject({ "lightgate.parse_failure": "I would rather not say." });
    const muteSpans = await spansOf(mute!);
    expect(muteSpans.filter((x) => x.name === "agent.step")).toEqual([]);
    expect(muteSpans.find((x) => rewardValueOf(x) !== null)!.attributes["lightgate.episode.outcome_reached"]).toBe(false);
    // One request per step, plus the retried 429 (no call for anything else).
    expect(requests.length).toBe(3 * 2 + 1 + 1);
  }, 60_000);

  it("a runner that keeps actors parsed still acts with a resources id's new version once it is published", async () => {
    const runner = new Runner({ url: s.url, apiKey: s.keys.runner, workerId: "version-runner" });
    await s.store.updateResources("rs-versions", { main_prompt: prompt("First.\n{ticket}") });
    const [a, b] = await enqueue("rs-versions", ["v/1", "v/2"]);
    await drain(runner);
    await s.store.updateResources("rs-versions", { main_prompt: prompt("Second.\n{ticket}") });
    const [c] = await enqueue("rs-versions", ["v/3"]);
    await drain(runner);
    const meta = async (id: string) => (await attemptOf(id)).metadata as Record<string, unknown>;
    const [ma, mb, mc] = [await meta(a!), await meta(b!), await meta(c!)];
    expect([ma["lightgate.resources_version"], mb["lightgate.resources_version"], mc["lightgate.resources_version"]]).toEqual([1, 1, 2]);
    expect(mb["lightgate.policy_digest"]).toBe(ma["lightgate.policy_digest"]);
    expect(mc["lightgate.policy_digest"]).not.toBe(ma["lightgate.policy_digest"]);
  }, 60_000);

  it("a rollout naming the version it was enqueued for runs that version from the runner's parsed actors; an unknown one is fetched", async () => {
    const runner = new Runner({ url: s.url, apiKey: s.keys.runner, workerId: "hint-runner" });
    await s.store.updateResources("rs-hint", { main_prompt: prompt("Old.\n{ticket}") });
    const [first] = await enqueue("rs-hint", ["h/1"]);
    await drain(runner); // parses and keeps v1
    await s.store.updateResources("rs-hint", { main_prompt: prompt("New.\n{ticket}") });
    const hinted = (version: number, seed: string) =>
      s.store.enqueueRollouts([{ input: { kind: "lightgate.episode", environment: "support-desk", distribution: "v2", task_seed: seed, options: {} }, mode: "train" as const, resources_id: "rs-hint", metadata: { "lightgate.resources_version": version } }]);
    const [[v1], [v7]] = [await hinted(1, "h/2"), await hinted(7, "h/3")];
    await drain(runner);
    const meta = async (id: string) => (await attemptOf(id)).metadata as Record<string, unknown>;
    const [m0, m1, m7] = [await meta(first!), await meta(v1!.rollout_id), await meta(v7!.rollout_id)];
    expect(m1["lightgate.resources_version"]).toBe(1); // the version it was enqueued for, not the latest
    expect(m1["lightgate.policy_digest"]).toBe(m0["lightgate.policy_digest"]);
    expect(m7["lightgate.resources_version"]).toBe(2); // no such version parsed: fetched, and the latest acts
    expect(m7["lightgate.policy_digest"]).not.toBe(m0["lightgate.policy_digest"]);
  }, 60_000);

  it("offline, the built-in responder executes the same resource; unrenderable or ambiguous resources fail the attempt by name", async () => {
    await s.store.updateResources("rs-jinja", { main_prompt: prompt("{{ ticket }}", "jinja") });
    await s.store.updateResources("rs-two", { a: prompt("One.\n{ticket}"), b: prompt("Two.\n{ticket}") });
    await s.store.updateResources("rs-bad-digest", { policy: { ...prompt("Three.\n{ticket}"), digest: "sha256:" + "0".repeat(64) } });
    const [offline] = await enqueue("rs-llm", ["p/4"]);
    const [jinja] = await enqueue("rs-jinja", ["p/5"]);
    const [two] = await enqueue("rs-two", ["p/6"]);
    const [bad] = await enqueue("rs-bad-digest", ["p/7"]);
    const before = requests.length;
    await drain(new Runner({ url: s.url, apiKey: s.keys.runner, workerId: "offline-runner" }));
    expect(requests.length).toBe(before);
    expect((await attemptOf(offline!)).metadata).toMatchObject({ "lightgate.responder": BUILTIN_SCORER });
    expect((await spansOf(offline!)).filter((x) => x.name === "agent.step").length).toBeGreaterThan(0);
    const failure = async (id: string) => {
      const a = await attemptOf(id);
      expect(a.status).toBe("failed");
      return a.metadata?.["lightgate.failure"];
    };
    expect(await failure(jinja!)).toMatch(/engine "jinja" is not supported by this runner/);
    expect(await failure(two!)).toMatch(/no entry "policy" and 2 prompt templates \(name one in policy_resource\)/);
    expect(await failure(bad!)).toMatch(/prompt digest mismatch/);
  }, 60_000);
});
