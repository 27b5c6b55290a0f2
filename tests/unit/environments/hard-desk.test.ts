import { describe, expect, it } from "vitest";
import { Rng } from "@/server/environments/prng";
import { createSupportDesk, HARD_DESK_DISTRIBUTION, SUPPORT_DESK_ACTIONS, type DeskState } from "@/server/environments/support-desk";
import { customerText } from "@/server/environments/support-desk/ticket-text";
import type { DeskTask } from "@/server/environments/support-desk/catalog";
import { lockHeldOutSet } from "@/server/trainers/evaluate";

const hard = createSupportDesk({ variant: "text" });
const standard = createSupportDesk();

/** The first task of the hard distribution with these attributes. */
function taskWith(attrs: Partial<DeskTask["attributes"]>): DeskTask {
  for (let i = 0; i < 5_000; i++) {
    const t = hard.sampleTask(HARD_DESK_DISTRIBUTION, `t/${i}`) as DeskTask;
    if (Object.entries(attrs).every(([k, v]) => t.attributes[k as keyof DeskTask["attributes"]] === v)) return t;
  }
  throw new Error(`no task with ${JSON.stringify(attrs)}`);
}

function play(task: DeskTask, actions: string[]): { state: DeskState; reached: boolean } {
  const { state } = hard.reset(task, { target: "tkt-test", rng: Rng.from("r"), options: { toolFailureRate: 0, timeoutShare: 0 } });
  for (const a of actions) {
    const i = hard.actions.findIndex((x) => x.name === a);
    expect(i, a).toBeGreaterThanOrEqual(0);
    if (hard.step(state, i).done) break;
  }
  return { state, reached: hard.outcomeReached(state) };
}

describe("the hard desk (text variant, distribution v4-text)", () => {
  it("is its own spec: no intent feature, the customer's hashed words instead, and argument-carrying actions", () => {
    expect(hard.specDigest).not.toBe(standard.specDigest);
    expect(standard.actions).toBe(SUPPORT_DESK_ACTIONS);
    expect(hard.featureNames.some((n) => n.startsWith("intent:"))).toBe(false);
    expect(hard.featureNames.filter((n) => n.startsWith("word#"))).toHaveLength(64);
    expect(hard.actions.map((a) => a.name)).toEqual(expect.arrayContaining(["search_for_information:refund_request", "escalate_to_human:privacy", "update_ticket:billing_question"]));
    expect(hard.distributions.map((d) => d.version)).toContain("v4-text");
    expect(standard.distributions.map((d) => d.version)).not.toContain("v4-text");
    expect(lockHeldOutSet(hard, "v4-text", 20).distribution.digest).toBe(HARD_DESK_DISTRIBUTION.digest);
  });

  it("two tickets of one intent read differently, and the features follow the words", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200 && seen.size < 2; i++) {
      const t = hard.sampleTask(HARD_DESK_DISTRIBUTION, `w/${i}`) as DeskTask;
      if (t.attributes.intent === "refund_request" && t.attributes.ambiguity === "low") seen.add(customerText(t).opening);
    }
    expect(seen.size).toBe(2);
    const task = taskWith({ intent: "how_to", ambiguity: "low" });
    const { state } = hard.reset(task, { target: "x", rng: Rng.from("r"), options: { toolFailureRate: 0, timeoutShare: 0 } });
    expect([...hard.observe(state).features.slice(1, 65)].some((v) => v === 1)).toBe(true);
  });

  it("the agent's arguments are what lands on the ticket: the right ones reach the outcome, wrong ones do not", () => {
    const refund = taskWith({ intent: "refund_request", ambiguity: "low", urgency: "low" });
    const right = ["request_additional_context", "search_for_information:refund_request", "provide_direct_answer", "update_ticket:refund_request", "close_ticket"];
    expect(play(refund, right).reached).toBe(true);
    expect(play(refund, right.map((a) => a.replace("search_for_information:refund_request", "search_for_information:how_to"))).reached).toBe(false);
    expect(play(refund, right.map((a) => a.replace("update_ticket:refund_request", "update_ticket:billing_question"))).reached).toBe(false);

    const legal = taskWith({ intent: "legal_threat", ambiguity: "low" });
    expect(play(legal, ["escalate_to_human:legal"]).reached).toBe(true);
    const wrongQueue = play(legal, ["escalate_to_human:support"]);
    expect(wrongQueue.reached).toBe(false);
    expect(wrongQueue.state.ticket.queue).toBe("support");
    // Protected rules count the action, whatever its argument: a pii lookup is still a lookup.
    const pii = taskWith({ intent: "pii_request", ambiguity: "low" });
    const looked = play(pii, ["search_for_information:how_to", "escalate_to_human:privacy"]);
    expect(hard.judgeProtected(pii, looked.state)!.reasons).toContain("looked up the personal data");
  });
});
