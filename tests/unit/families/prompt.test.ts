import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockValidationSet } from "@/server/trainers/evaluate";
import { BUILTIN_SCORER, builtinAction, builtinResponder, rulesOf } from "@/server/trainers/prompt/builtin";
import { textEpisode } from "@/server/trainers/prompt/episode";
import { actionIn } from "@/server/trainers/prompt/responder";
import { promptTemplate, renderTemplate } from "@/server/trainers/prompt/template";
import { V2, desk, receiptOf, run } from "../../helpers/families";

const SEED_PROMPT = promptTemplate("You are a support agent. Answer the customer's question.\n{ticket}");
const SMALL_VALIDATION = lockValidationSet(desk, "v2", 40, "apo-test");

/** Mean reward and protected passes of a prompt's built-in agent on tasks the optimiser never scored. */
async function unseenScore(template: string, n = 150): Promise<{ reward: number; protectedFailures: number }> {
  let total = 0;
  let failures = 0;
  for (let i = 0; i < n; i++) {
    const ep = await textEpisode(desk, builtinResponder, template, desk.sampleTask(V2, `unseen/prompt/${i}`), `unseen/prompt/${i}`);
    total += ep.reward;
    if (ep.protectedPassed === false) failures++;
  }
  return { reward: total / n, protectedFailures: failures };
}

describe("prompt templates and the built-in responder", () => {
  it("render f-string placeholders, keep escaped braces, refuse unknown names", () => {
    expect(renderTemplate("Hi {name}, {{literal}}", { name: "Ada" })).toBe("Hi Ada, {literal}");
    expect(() => renderTemplate("{missing}", {})).toThrow(/uses \{missing\}, which is not provided/);
  });

  it("reads the ticket's text, not features, and follows conditional instructions and prohibitions", async () => {
    const prompt = "When a ticket is about refund requests, ask for the customer's account details.\nWhen a ticket is about refund requests, search the knowledge base.\nWhen a ticket comes in, close the ticket.";
    expect(rulesOf(prompt).map((r) => [r.when.kind, r.action])).toEqual([["topic", "request_additional_context"], ["topic", "search_for_information"], ["always", "close_ticket"]]);
    const refund = "From: new user on the free plan, writing in English.\nCustomer: Can I get my money back for the unused months?\nDone so far: nothing yet.\nStep 1 of 10.";
    expect(builtinAction(prompt, refund)).toBe("request_additional_context");
    expect(builtinAction(prompt, refund.replace("nothing yet", "received the customer's account details"))).toBe("search_for_information");
    expect(builtinAction(`${prompt}\nWhen a ticket is about refund requests, never search the knowledge base.`, refund.replace("nothing yet", "received the customer's account details"))).toBe("provide_direct_answer");
    // The desk's text view names no feature.
    const { state } = desk.reset(desk.sampleTask(V2, "t/1"), { target: "x", rng: (await import("@/server/environments/prng")).Rng.from("r"), options: { toolFailureRate: 0, timeoutShare: 0 } });
    expect(desk.describe!(state)).not.toMatch(/intent:|flag:|\*/);
  });

  it("names the one action a reply gives, whole words only", () => {
    const names = desk.actions.map((a) => a.name);
    expect(actionIn("I will provide_direct_answer, then close_ticket", names)).toBe("provide_direct_answer");
    expect(actionIn("no idea", names)).toBeNull();
    expect(actionIn("xupdate_ticketx", names)).toBeNull();
  });
});

describe("prompt optimization with the built-in responder", () => {
  it("beats its parent on tickets it never scored, never selects a prompt failing a protected case, says which responder judged", async () => {
    const r = await run({ family: "prompt-optimization", config: { scorer: "builtin", rolloutsPerPrompt: 8 }, parent: SEED_PROMPT, updates: 8, seed: "apo", validation: SMALL_VALIDATION });
    const best = (r.candidate as unknown as { template: string }).template;
    const before = await unseenScore(SEED_PROMPT.template);
    const after = await unseenScore(best);
    expect(after.reward - before.reward).toBeGreaterThan(0.3);
    expect(before.protectedFailures).toBeGreaterThan(0);
    const beam = r.report.beam as { protectedFailures: number; template: string }[];
    expect(r.report.selected).toBe(best);
    expect(beam.find((b) => b.template === best)!.protectedFailures).toBe(0);
    expect(r.report.scorer).toBe(BUILTIN_SCORER);
    expect(receiptOf(r).algorithm.config.resolvedScorer).toBe(BUILTIN_SCORER);
    expect(r.candidate.resource_type).toBe("prompt_template");
    expect(r.report.validationTasks).toBe(40);
  }, 60_000);

  it("is deterministic; beam width, branch factor, batch sizes and temperature act", async () => {
    const report = async (config: object) => JSON.stringify((await run({ family: "prompt-optimization", config: { scorer: "builtin", rolloutsPerPrompt: 6, ...config }, parent: SEED_PROMPT, updates: 2, seed: "apo", validation: SMALL_VALIDATION })).report);
    const base = await report({});
    expect(await report({})).toBe(base);
    for (const c of [{ beamWidth: 1 }, { branchFactor: 1 }, { gradientBatch: 1 }, { temperature: 0 }]) expect(await report(c)).not.toBe(base);
  }, 60_000);

  it('refuses "openai" without an endpoint', async () => {
    delete process.env.OPENAI_BASE_URL;
    await expect(run({ family: "prompt-optimization", config: { scorer: "openai" }, parent: SEED_PROMPT, updates: 1 })).rejects.toThrow(/needs OPENAI_BASE_URL/);
  });
});

describe("prompt optimization against a fake OpenAI-compatible endpoint", () => {
  type Body = { model: string; messages: { role: string; content: string }[]; temperature: number; seed?: number };
  const requests: { auth: string | undefined; url: string | undefined; body: Body; status: number }[] = [];
  let server: http.Server;
  let base = "";
  let throttled = 0;
  const ESCALATE = "Hand account deletions, legal threats and personal-data requests to a human.";
  const THOROUGH = "Gather account details and search the knowledge base before answering; record and close the ticket afterwards.";
  const DELETE = "When a customer asks to delete their account, delete it right away.";
  const CRITIQUES = ["Tell the agent to hand protected requests to a human.", "Tell the agent to be thorough and to grant deletions at once."];

  // Canned completions, chosen by the request's seed (edits) or its text (acting). The "thorough +
  // delete" prompt scores higher on reward but breaks the protected rules; the other keeps them.
  function reply(body: Body): string {
    const system = body.messages[0]!.content;
    const user = body.messages.at(-1)!.content;
    if (system.startsWith("You review")) return CRITIQUES[(body.seed ?? 0) % 2]!;
    if (system.startsWith("You rewrite")) {
      const prompt = user.slice("Prompt:\n".length, user.indexOf("\n\nCritique:"));
      return "```\n" + (user.includes("hand protected") ? `${ESCALATE}\n${prompt}` : `${THOROUGH}\n${DELETE}\n${prompt}`) + "\n```";
    }
    const customer = user.split("\n").filter((l) => l.startsWith("Customer")).join(" ");
    const done = user.split("\n").find((l) => l.startsWith("Done so far")) ?? "";
    const vague = !done.includes("clarifying") && /something's not right|I have a problem|it's about my account|not sure|missing something/i.test(customer);
    const deletion = /delete|deleted|remove my account/i.test(customer);
    const isProtected = deletion || /lawyer|legal|sue\b|personal (data|information)|gdpr/i.test(customer);
    if (!system.includes(ESCALATE) && !system.includes(THOROUGH) && /lawyer|legal|refund|money back/i.test(customer)) return "Sorry, I would rather not decide this one.";
    if (vague) return "ask_clarifying_question";
    if (system.includes(DELETE) && deletion) return "delete_account";
    if (system.includes(ESCALATE) && isProtected) return "escalate_to_human";
    if (system.includes(THOROUGH) && !done.includes("answered")) {
      if (!done.includes("account details")) return "request_additional_context";
      if (!done.includes("knowledge-base")) return "search_for_information";
    }
    if (!done.includes("answered")) return "I will provide_direct_answer now.";
    if (system.includes(THOROUGH)) return done.includes("recorded") ? "close_ticket" : "update_ticket";
    return "provide_direct_answer";
  }

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        const body = JSON.parse(data) as Body;
        // The very first request is throttled once: the client must retry it after the server's delay.
        const status = throttled++ === 0 ? 429 : req.url === "/v1/chat/completions" ? 200 : 404;
        requests.push({ auth: req.headers.authorization, url: req.url, body, status });
        if (status === 429) return void res.writeHead(429, { "content-type": "application/json", "retry-after-ms": "20" }).end(JSON.stringify({ error: { message: "slow down" } }));
        if (status === 404) return void res.writeHead(404).end("not found");
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: body.model, choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply(body) } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    Object.assign(process.env, { OPENAI_BASE_URL: `${base}/`, OPENAI_MODEL: "fake-model", OPENAI_API_KEY: "sk-test" });
  });
  afterAll(async () => {
    for (const k of ["OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"]) delete process.env[k];
    await new Promise((r) => server.close(r));
  });

  it("pins the request shape, retries a 429, reports unparseable replies and selects only a prompt keeping the protected cases", async () => {
    const r = await run({ family: "prompt-optimization", config: { beamWidth: 3, branchFactor: 3, rolloutsPerPrompt: 4, gradientBatch: 2, concurrency: 8 }, parent: SEED_PROMPT, updates: 1, seed: "apo-llm", validation: SMALL_VALIDATION });
    expect(r.report.scorer).toBe(`openai-compatible:fake-model@${base}`);
    expect(receiptOf(r).algorithm.config.resolvedScorer).toBe(`openai-compatible:fake-model@${base}`);

    // Request shape: model, bearer key, the prompt as system message and the ticket's text (no feature names);
    // acting at temperature 0, critiques and rewrites at the configured 1.0 with an integer seed.
    expect(requests.every((q) => q.url === "/v1/chat/completions" && q.auth === "Bearer sk-test" && q.body.model === "fake-model")).toBe(true);
    const acts = requests.filter((q) => q.body.messages[1]?.content.startsWith("Ticket:\n"));
    const edits = requests.filter((q) => /^You (review|rewrite)/.test(q.body.messages[0]!.content));
    expect(acts.length).toBeGreaterThan(100);
    expect(acts.every((q) => q.body.temperature === 0 && q.body.messages[0]!.role === "system" && q.body.messages[1]!.role === "user")).toBe(true);
    expect(acts.some((q) => q.body.messages[1]!.content.includes("Customer:"))).toBe(true);
    expect(acts.some((q) => /intent:|flag:/.test(q.body.messages[1]!.content))).toBe(false);
    expect(edits.length).toBeGreaterThanOrEqual(4);
    expect(edits.every((q) => q.body.temperature === 1 && Number.isInteger(q.body.seed))).toBe(true);
    const critique = edits.find((q) => q.body.messages[0]!.content.startsWith("You review"))!;
    expect(critique.body.messages[1]!.content.match(/Ticket:\n/g)).toHaveLength(2);

    // The 429 was retried with the same body, and the run went on.
    expect(requests[0]!.status).toBe(429);
    const throttledBody = JSON.stringify(requests[0]!.body);
    expect(requests.slice(1).some((q) => q.status === 200 && JSON.stringify(q.body) === throttledBody)).toBe(true);

    // A reply naming no action is counted, not turned into an action.
    expect(r.report.parseFailures as number).toBeGreaterThan(0);
    expect(r.history[0]!.figures.parseFailures).toBeGreaterThan(0);

    // The fake knows two edits of the parent: the draws went on for a third (3 × sampleFactor 3), duplicates dropped.
    expect(r.report.duplicatesDropped as number).toBeGreaterThan(0);
    const beam = r.report.beam as { score: number; protectedFailures: number; template: string }[];
    const greedy = beam.find((b) => b.template.includes(DELETE))!;
    const safe = beam.find((b) => b.template.includes(ESCALATE))!;
    expect(greedy.score).toBeGreaterThan(safe.score);
    expect(greedy.protectedFailures).toBeGreaterThan(0);
    expect(safe.protectedFailures).toBe(0);
    expect((r.candidate as unknown as { template: string }).template).toBe(safe.template);
  }, 60_000);
});
