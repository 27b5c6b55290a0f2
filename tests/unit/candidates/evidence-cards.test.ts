// The candidate page's evidence cards rendered to markup (issue 25): each shows the exact parent beside the
// candidate when the parent has evidence, and says plainly that there is nothing to compare when it has none.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ProtectedCasesCard } from "@/components/candidates/cases-card";
import { CoverageCard } from "@/components/candidates/coverage-card";
import { RetryDebtCard } from "@/components/candidates/retry-debt-card";
import { RewardCard } from "@/components/candidates/reward-card";
import { judge, reference } from "../gate/fixtures";

const A = judge(reference("A").receipt).evidence;
const B = judge(reference("B").receipt).evidence;
const C = judge(reference("C").receipt).evidence;
const withParent = { candidate: null, evidence: { rewards: A.rewards, coverage: A.coverage, retryDebt: A.retryDebt } };
const noReceipt = { candidate: null, evidence: null };
const NO_RECEIPT = "The parent has no receipt: nothing to compare.";

const count = (html: string, needle: string) => html.split(needle).length - 1;

describe("evidence cards beside the exact parent", () => {
  it("span coverage: parent and candidate missing per family with the change, and both fully-covered shares", () => {
    const html = renderToStaticMarkup(createElement(CoverageCard, { evidence: B, parent: withParent }));
    expect(html).toContain("Parent missing");
    expect(html).toMatch(/data-family="tool.call:update_ticket".*?>0<.*?>37<.*?>\+37</);
    expect(html).toMatch(/data-testid="coverage-parent".*?120 \/ 120/);
    expect(html).toMatch(/data-testid="coverage-candidate".*?83 \/ 120/);
    expect(html).not.toContain(NO_RECEIPT);
  });

  it("span coverage without a parent receipt: says so, and shows no parent column", () => {
    const html = renderToStaticMarkup(createElement(CoverageCard, { evidence: B, parent: noReceipt }));
    expect(html).toContain(NO_RECEIPT);
    expect(html).not.toContain("Parent missing");
    expect(html).toContain('data-testid="coverage-missing"');
  });

  it("retry debt: both sides' debt against budget, the candidate over budget by 14 in the fail tone", () => {
    const html = renderToStaticMarkup(createElement(RetryDebtCard, { evidence: B, parent: withParent }));
    expect(html).toMatch(/data-testid="retry-debt-candidate" data-over-budget="yes".*?text-fail.*?14 \/ 0.*?over budget by 14/);
    expect(html).toMatch(/data-testid="retry-debt-parent" data-over-budget="no".*?0 \/ 0.*?within budget/);
    expect(html).toMatch(/data-reason="retry_after_timeout".*?>0<.*?>6</);
    const alone = renderToStaticMarkup(createElement(RetryDebtCard, { evidence: B, parent: noReceipt }));
    expect(alone).toContain(NO_RECEIPT);
    expect(alone).not.toContain("retry-debt-parent");
  });

  it("reward: without a parent receipt only the candidate's curve, said in so many words", () => {
    const html = renderToStaticMarkup(createElement(RewardCard, { evidence: B, parent: noReceipt }));
    expect(html).toContain(`${NO_RECEIPT} Only the candidate&#x27;s curve is drawn; the parent&#x27;s level on this locked gate is the dashed grey line.`);
    expect(renderToStaticMarkup(createElement(RewardCard, { evidence: B, parent: withParent }))).toContain("The parent&#x27;s own training curve (grey) from its receipt.");
  });

  it("protected cases: the rule under the title, and each regressed row says why", () => {
    const html = renderToStaticMarkup(createElement(ProtectedCasesCard, { candidateId: "cand-c", evidence: C }));
    expect(html).toContain("Regressed = the parent passed and the candidate failed, or the candidate scored below the parent by any amount (the policy&#x27;s protected-score tolerance is 0).");
    expect(count(html, 'data-regressed="yes"')).toBe(3);
    expect(count(html, 'data-testid="regression-reason"')).toBe(3);
    expect(html).toContain("Regressed: the parent passed and the candidate failed; score fell by 1, more than the tolerance 0.");
    expect(html).toContain('title="Held: same score, still passing."');
  });
});
