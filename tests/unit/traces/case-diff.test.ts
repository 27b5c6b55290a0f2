// The parent-vs-candidate trace diff of one locked-gate case: tools called on one side only (or a different
// number of times), a different final reward, a span family on one side only, a different final output — and
// which spans each difference is marked on.
import { describe, expect, it } from "vitest";
import { diffCaseTraces, OUTPUT_CHARS, type DiffSpan } from "@/server/traces/case-diff";

let n = 0;
const span = (name: string, attributes: Record<string, unknown> = {}): DiffSpan => ({ key: `a/${name}-${++n}`, name, attributes });
const step = (action: string) => span("agent.step", { "lightgate.step.action": action, "lightgate.task.id": "t1" });
const tool = (name: string) => span(`tool.call:${name}`, { "lightgate.tool.name": name, "lightgate.tool.arguments": "{}", "lightgate.tool.outcome": "ok" });
const reward = (value: number) => span("agentlightning.annotation", { "agentlightning.reward.0.name": "episode_reward", "agentlightning.reward.0.value": value });

/** The desk's shape: a step per action with its tool call, then the episode's reward. */
const trace = (actions: string[], score: number) => [...actions.flatMap((a) => [step(a), tool(a)]), reward(score)];
const marksOf = (marks: { key: string; notes: string[] }[], spans: DiffSpan[]) => marks.map((m) => [spans.find((s) => s.key === m.key)!.name, m.notes]);

describe("diffCaseTraces", () => {
  it("finds no difference between two traces that called the same tools, ended on the same reward and said the same", () => {
    const diff = diffCaseTraces(trace(["lookup_ticket", "escalate_ticket"], 1), trace(["lookup_ticket", "escalate_ticket"], 1));
    expect(diff.differences).toEqual([]);
    expect(diff.marks).toEqual({ parent: [], candidate: [] });
    expect(diff.parent).toEqual({ tools: [{ tool: "lookup_ticket", calls: 1 }, { tool: "escalate_ticket", calls: 1 }], families: ["agent.step", "tool.call:lookup_ticket", "tool.call:escalate_ticket", "reward"], reward: 1, output: "escalate_ticket" });
  });

  it("marks a tool called on one side only, the final reward and the final output on both sides", () => {
    const parent = trace(["lookup_ticket", "escalate_ticket"], 1);
    const candidate = trace(["lookup_ticket", "close_ticket"], 0);
    const diff = diffCaseTraces(parent, candidate);
    expect(diff.differences).toEqual([
      { kind: "tool", tool: "escalate_ticket", parent: 1, candidate: 0 },
      { kind: "tool", tool: "close_ticket", parent: 0, candidate: 1 },
      { kind: "reward", parent: 1, candidate: 0 },
      { kind: "output", parent: "escalate_ticket", candidate: "close_ticket" },
    ]);
    expect(marksOf(diff.marks.parent, parent)).toEqual([
      ["agent.step", ["final output differs"]],
      ["tool.call:escalate_ticket", ["only on the parent"]],
      ["agentlightning.annotation", ["final reward differs"]],
    ]);
    expect(marksOf(diff.marks.candidate, candidate)).toEqual([
      ["agent.step", ["final output differs"]],
      ["tool.call:close_ticket", ["only on the candidate"]],
      ["agentlightning.annotation", ["final reward differs"]],
    ]);
  });

  it("counts calls: the same tool called twice on one side and once on the other is a difference", () => {
    const diff = diffCaseTraces(trace(["lookup_ticket", "reply"], 0.5), trace(["lookup_ticket", "lookup_ticket", "reply"], 0.5));
    expect(diff.differences).toEqual([{ kind: "tool", tool: "lookup_ticket", parent: 1, candidate: 2 }]);
    expect(diff.marks.candidate.flatMap((m) => m.notes)).toEqual(["called 2× here, 1× on the parent", "called 2× here, 1× on the parent"]);
  });

  it("names a span family missing on one side: a trace whose reward span never came, an exception only on the candidate", () => {
    const parent = trace(["lookup_ticket"], 1);
    const candidate = [step("lookup_ticket"), tool("lookup_ticket"), span("agentlightning.exception", { "exception.message": "boom" })];
    const diff = diffCaseTraces(parent, candidate);
    expect(diff.differences).toEqual([
      { kind: "family", family: "reward", onlyOn: "parent" },
      { kind: "family", family: "exception", onlyOn: "candidate" },
      { kind: "reward", parent: 1, candidate: null },
    ]);
    expect(marksOf(diff.marks.parent, parent)).toEqual([["agentlightning.annotation", ["no reward span on the candidate", "final reward differs"]]]);
    expect(marksOf(diff.marks.candidate, candidate)).toEqual([["agentlightning.exception", ["no exception span on the parent"]]]);
  });

  it("reads LLM outputs as the span detail does, the last one being the final output; equal rewards within float noise are equal", () => {
    const llm = (text: string) => span("openai.chat.completion", { "gen_ai.completion.0.content": text, "gen_ai.prompt.0.content": "Where is my order?" });
    const diff = diffCaseTraces([llm("Let me check."), llm("It ships today."), reward(0.3)], [llm("Let me check."), llm("It shipped yesterday."), reward(0.1 + 0.2)]);
    expect(diff.differences).toEqual([{ kind: "output", parent: "It ships today.", candidate: "It shipped yesterday." }]);
    expect(diff.parent.families).toEqual(["llm.call", "reward"]);
  });

  it("compares whole outputs but returns at most OUTPUT_CHARS of each, and an empty side differs in everything it lacks", () => {
    const long = "x".repeat(OUTPUT_CHARS + 10);
    const diff = diffCaseTraces([step(long), reward(1)], [step(`${long}y`), reward(1)]);
    expect(diff.differences.map((d) => d.kind)).toEqual(["output"]);
    expect(diff.parent.output).toHaveLength(OUTPUT_CHARS);
    const empty = diffCaseTraces(trace(["lookup_ticket"], 1), []);
    expect(empty.differences).toEqual([
      { kind: "tool", tool: "lookup_ticket", parent: 1, candidate: 0 },
      { kind: "family", family: "agent.step", onlyOn: "parent" },
      { kind: "family", family: "reward", onlyOn: "parent" },
      { kind: "reward", parent: 1, candidate: null },
      { kind: "output", parent: "lookup_ticket", candidate: null },
    ]);
    expect(empty.marks.candidate).toEqual([]);
  });
});
