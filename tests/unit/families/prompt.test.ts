import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulateEpisode } from "@/server/environments/episode";
import { DEFAULT_REWARD_WEIGHTS, weightedReward } from "@/server/environments/types";
import { BUILTIN_SCORER, INSTRUCTION_LIBRARY, ruleFollower, rulesOf } from "@/server/trainers/prompt/builtin";
import { actionIn } from "@/server/trainers/prompt/openai";
import { promptTemplate, renderTemplate } from "@/server/trainers/prompt/template";
import { V2, desk, receiptOf, run } from "../../helpers/families";

const SEED_PROMPT = promptTemplate("You are a support agent. Answer the customer's question.\n{ticket}");

/** Mean reward of a prompt's simulated agent on tasks the optimiser never scored. */
function heldOutScore(template: string): number {
  let total = 0;
  for (let i = 0; i < 200; i++) {
    const task = desk.sampleTask(V2, `held-out/prompt/${i}`);
    total += weightedReward(simulateEpisode(desk, ruleFollower(template), task, { episodeKey: `p/${i}`, seed: `held-out/prompt/${i}` }).totals, DEFAULT_REWARD_WEIGHTS);
  }
  return total / 200;
}

describe("prompt templates", () => {
  it("render f-string placeholders, keep escaped braces, refuse unknown names", () => {
    expect(renderTemplate("Hi {name}, {{literal}}", { name: "Ada" })).toBe("Hi Ada, {literal}");
    expect(() => renderTemplate("{missing}", {})).toThrow(/uses \{missing\}, which is not provided/);
  });

  it("the built-in agent follows the instructions it recognises, the last word winning a conflict", () => {
    expect(rulesOf(INSTRUCTION_LIBRARY[1]!).escalateProtected).toBe(true);
    const conflicting = rulesOf(`${INSTRUCTION_LIBRARY[1]} Never hand a ticket to a human; always answer it yourself.`);
    expect(conflicting).toMatchObject({ escalateProtected: false, neverEscalate: true });
  });
});

describe("prompt optimization with the built-in scorer", () => {
  it("beam search finds a prompt that beats its parent on tasks it never scored, and says which scorer judged", async () => {
    const r = await run({ family: "prompt-optimization", config: { scorer: "builtin" }, parent: SEED_PROMPT, updates: 6, seed: "apo" });
    const best = (r.candidate as unknown as { template: string }).template;
    // Measured: the seed prompt scores −0.37 on validation; after 6 rounds 0.69 (100 % success).
    expect(heldOutScore(best) - heldOutScore(SEED_PROMPT.template)).toBeGreaterThan(0.6);
    expect(r.report.scorer).toBe(BUILTIN_SCORER);
    const s1 = receiptOf(r);
    expect(s1.algorithm.config.resolvedScorer).toBe(BUILTIN_SCORER);
    expect(s1.parent.digest).toBe(r.facts.parent.digest);
    expect(r.candidate.resource_type).toBe("prompt_template");
    const history = r.report.history as { best: number }[];
    for (let i = 1; i < history.length; i++) expect(history[i]!.best).toBeGreaterThanOrEqual(history[i - 1]!.best);
  });

  it("is deterministic; beam width, branch factor and validation tasks act", async () => {
    const digest = async (config: object) => (await run({ family: "prompt-optimization", config: { scorer: "builtin", ...config }, parent: SEED_PROMPT, updates: 2, seed: "apo" })).candidate.digest;
    const base = await digest({});
    expect(await digest({})).toBe(base);
    const reports = await Promise.all([{ beamWidth: 1 }, { branchFactor: 1 }, { validationTasks: 10 }].map(async (c) => JSON.stringify((await run({ family: "prompt-optimization", config: { scorer: "builtin", ...c }, parent: SEED_PROMPT, updates: 2, seed: "apo" })).report)));
    const baseReport = JSON.stringify((await run({ family: "prompt-optimization", config: { scorer: "builtin" }, parent: SEED_PROMPT, updates: 2, seed: "apo" })).report);
    for (const r of reports) expect(r).not.toBe(baseReport);
  });

  it('refuses "openai" without an endpoint', async () => {
    delete process.env.OPENAI_BASE_URL;
    await expect(run({ family: "prompt-optimization", config: { scorer: "openai" }, parent: SEED_PROMPT, updates: 1 })).rejects.toThrow(/needs OPENAI_BASE_URL/);
  });
});

describe("prompt optimization against an OpenAI-compatible endpoint", () => {
  const PORT = 3517;
  const requests: { auth: string | undefined; body: { model: string; messages: { role: string; content: string }[]; temperature: number } }[] = [];
  let server: http.Server;
  const ESCALATE = "Escalate account deletion requests, legal threats and requests for personal data to a human.";

  // A tiny fake model: critiques ask for escalation, rewrites add it, and as an agent it escalates
  // protected tickets only when its prompt says so (otherwise it answers, records and closes).
  function reply(messages: { role: string; content: string }[]): string {
    const system = messages[0]!.content;
    const user = messages.at(-1)!.content;
    if (system.startsWith("You review")) return "Tell the agent to hand protected requests to a human.";
    if (system.startsWith("You rewrite")) return "```\n" + user.slice("Prompt:\n".length, user.indexOf("\n\nCritique:")) + `\n${ESCALATE}\n` + "```";
    if (system.includes(ESCALATE) && /intent:(legal_threat|pii_request|account_deletion)/.test(user)) return "escalate_to_human";
    if (!user.includes("flag:answered")) return "I will provide_direct_answer now.";
    if (!user.includes("flag:updated")) return "update_ticket";
    return "close_ticket";
  }

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => {
        const body = JSON.parse(data);
        requests.push({ auth: req.headers.authorization, body });
        if (req.url !== "/v1/chat/completions") return void res.writeHead(404).end("not found");
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ choices: [{ message: { role: "assistant", content: reply(body.messages) } }] }));
      });
    });
    await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
    Object.assign(process.env, { OPENAI_BASE_URL: `http://127.0.0.1:${PORT}/v1/`, OPENAI_MODEL: "fake-model", OPENAI_API_KEY: "sk-test" });
  });
  afterAll(async () => {
    for (const k of ["OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_API_KEY"]) delete process.env[k];
    await new Promise((r) => server.close(r));
  });

  it("edits with the model (critique → rewrite), scores with the model as the agent, and records that scorer", async () => {
    const r = await run({ family: "prompt-optimization", config: { beamWidth: 2, branchFactor: 1, validationTasks: 30 }, parent: SEED_PROMPT, updates: 1, seed: "apo-llm" });
    const scorer = `openai-compatible:fake-model@http://127.0.0.1:${PORT}/v1`;
    expect(r.report.scorer).toBe(scorer);
    expect(receiptOf(r).algorithm.config.resolvedScorer).toBe(scorer);
    expect((r.candidate as unknown as { template: string }).template).toContain(ESCALATE);
    const beam = r.report.beam as { score: number; template: string }[];
    expect(beam[0]!.score).toBeGreaterThan(beam[1]!.score);
    expect(requests.every((q) => q.auth === "Bearer sk-test" && q.body.model === "fake-model" && q.body.temperature === 0)).toBe(true);
    expect(requests.some((q) => q.body.messages[0]!.content.startsWith("You review"))).toBe(true);
    expect(requests.filter((q) => q.body.messages[1]?.content.startsWith("Ticket:")).length).toBeGreaterThan(60);
  });

  it("reads the first action a reply names", () => {
    expect(actionIn("I will provide_direct_answer, then close_ticket", desk.actions.map((a) => a.name))).toBe("provide_direct_answer");
    expect(actionIn("no idea", desk.actions.map((a) => a.name))).toBeNull();
  });
});
