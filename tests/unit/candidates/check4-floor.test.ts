// The candidate page states check 4's policy floor beside the check: what the policy needs and what the
// candidate had, from the check's own evidence (so it follows the policy the check was judged with).
import { describe, expect, it } from "vitest";
import { check4FloorSentence } from "@/lib/candidates/check4-floor";
import { POLICY } from "@/server/gate/reference/common";
import { judge, reference } from "../gate/fixtures";

const evidenceOf = (report: ReturnType<typeof judge>) => report.checks[3]!.evidence as Record<string, unknown>;

describe("check 4's floor on the candidate page", () => {
  it("names the policy's floor and what the candidate had", () => {
    const sentence = check4FloorSentence(evidenceOf(judge(reference("A").receipt)));
    expect(sentence).toMatch(/^Policy floor: needs ≥ 20 locked cases and a gain above \+0\.020 at the interval's lower end; had n = 60, lower end \+0\.03\d\.$/);
  });

  it("follows the policy the check was judged with", () => {
    const report = judge(reference("A").receipt, { policy: { ...POLICY, minLockedCases: 80, minScoreGain: 0.05 } });
    expect(report.checks[3]!.status).toBe("fail");
    expect(check4FloorSentence(evidenceOf(report))).toMatch(/needs ≥ 80 locked cases and a gain above \+0\.050 .*had n = 60/);
    expect(report.checks[3]!.explanation).toMatch(/Too few locked cases to show a gain: 60 locked cases .*at least 80/);
  });

  it("says nothing for evidence judged before check 4 had a floor", () => {
    const old = { ...evidenceOf(judge(reference("A").receipt)) };
    delete old.floor;
    expect(check4FloorSentence(old)).toBeNull();
  });
});
