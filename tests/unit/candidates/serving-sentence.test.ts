// What the candidate page says about how the locked gate was scored and who served it (issue 23).
import { describe, expect, it } from "vitest";
import { servingSentence, type ServingFacts } from "@/lib/candidates/serving";

const facts = (over: Partial<ServingFacts>): ServingFacts => ({ evaluator: "exam@3", scoring: "runner_reward", outputAttribute: null, gateRunId: "gr-1", servers: [], ...over });

describe("servingSentence", () => {
  it("says plainly that runner_reward scores come from the runners, and names each identity that served", () => {
    expect(servingSentence(facts({ servers: [{ identity: "ak-1", name: "desk runners" }, { identity: "ak-2", name: null }] }))).toBe(
      "Scores come from the runners' own reward spans; served by: desk runners (ak-1), ak-2. Evaluator exam@3 trusts the runner's reward.",
    );
  });
  it("names the compared output attribute for expected_output", () => {
    expect(servingSentence(facts({ scoring: "expected_output", outputAttribute: "agent.output" }))).toMatch(/^Scores come from comparing what was served \(span attribute agent\.output\) with each case's expected output, not from what the runner says about itself; served by: nobody yet\./);
  });
  it("does not claim anyone served results imported with the receipt", () => {
    expect(servingSentence(facts({ gateRunId: null }))).toContain("served by: not recorded (no gate run here: the results came with the receipt)");
  });
});
