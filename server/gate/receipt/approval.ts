// A recorded decision on one step, bound to the digest of exactly what the approver saw.
import { z } from "zod";
import { ZDigest, type Digest } from "../digest";
import { hasScope } from "@/lib/auth/scopes";
import { APPROVAL_STEPS, STEP_SCOPE, ZActorRef, type ActorRef, type ApprovalStep, type Authority } from "./refs";
import { signedDecisionOf, type Signature, type SignedDecisions } from "./signed-decisions";

export const ZApproval = z.object({
  step: z.enum(APPROVAL_STEPS),
  decision: z.enum(["approve", "reject"]),
  actor: ZActorRef,
  /** Digest of the sealed link decided on: the latest stage 3 (canary step) or canary stage (default step). */
  approves: ZDigest,
  at: z.iso.datetime(),
  comment: z.string().max(2000),
});
export type Approval = z.infer<typeof ZApproval>;
/** An approval link's content with the link's own digest, as the receipt view lists them. */
export type RecordedApproval = Approval & { link: Digest; cycle?: number };

export type AuthorityCheck = { authorized: true } | { authorized: false; reason: string };

/**
 * Whether an actor may take a step under the receipt's declared authority. The actor that opened the receipt
 * (the trainer) never approves its own candidate, whatever its roles.
 */
export function checkAuthority(actor: ActorRef, step: ApprovalStep, authority: Authority, declaredBy: string): AuthorityCheck {
  if (actor.id === declaredBy) return { authorized: false, reason: `${actor.id} opened this receipt and cannot approve it` };
  if (!hasScope(actor.roles, STEP_SCOPE[step])) {
    return { authorized: false, reason: `${actor.id} lacks the "${STEP_SCOPE[step]}" scope` };
  }
  const named = authority.actorIds.includes(actor.id) || actor.roles.some((r) => authority.roles.includes(r));
  return named ? { authorized: true } : { authorized: false, reason: `${actor.id} is not among the receipt's ${step} approvers` };
}

/** A counted decision: the link, the actor with the roles held when it was signed, and the signature behind it. */
export type CountedDecision = RecordedApproval & { signedBy: ActorRef; signature: Signature };
export type StepDecision = { decision: CountedDecision | null; ignored: string[] };

/**
 * The decision that stands for one step: the latest approval or rejection naming `target` (the sealed link
 * decided on) that rests on a verified signed decision (signed-decisions.ts) by an actor who held the step's
 * scope for the agent at the time and is not excluded. Decisions on earlier receipts, unsigned or unverified
 * ones, and ones by actors without authority are listed, not counted.
 */
export function decisionOn(
  approvals: readonly RecordedApproval[],
  step: ApprovalStep,
  target: Digest | undefined,
  authority: Authority,
  declaredBy: string,
  signed: SignedDecisions,
  /** The current promotion cycle (receipt.cycle); absent: every approval of the chain counts (the stricter rule). */
  cycle?: number,
): StepDecision {
  const ignored: string[] = [];
  const counted: CountedDecision[] = [];
  // Four eyes within the promotion cycle: whoever approved its canary step cannot also make it the default.
  const canaryApprovers = step === "default" ? canaryApproversOf(approvals, cycle) : new Set<string>();
  for (const a of approvals) {
    if (a.step !== step) continue;
    if (a.decision === "approve" && canaryApprovers.has(a.actor.id)) {
      ignored.push(`${a.actor.id}'s approval: ${a.actor.id} approved the canary step of this cycle, and the default step needs another person`);
      continue;
    }
    if (a.approves !== target) {
      ignored.push(`${a.actor.id} decided on an earlier receipt`);
      continue;
    }
    // A re-run that carries the sealed canary stage keeps the default step's target, but not its decision: a
    // default approval of an earlier cycle (say, before a rollback) is history; this cycle needs its own.
    if (step === "default" && cycle !== undefined && a.cycle !== undefined && a.cycle !== cycle) {
      ignored.push(`${a.actor.id}'s ${a.decision === "approve" ? "approval" : "rejection"} was of an earlier promotion cycle`);
      continue;
    }
    const what = a.decision === "approve" ? "approval" : "rejection";
    const verified = signedDecisionOf(a, signed);
    if (!verified.ok) {
      ignored.push(`${a.actor.id}'s ${what}: ${verified.reason}`);
      continue;
    }
    const check = checkAuthority(verified.actor, step, authority, declaredBy);
    if (check.authorized) counted.push({ ...a, signedBy: verified.actor, signature: verified.signature });
    else ignored.push(`${a.actor.id}'s ${what}: ${check.reason} (roles held when it was signed: ${verified.actor.roles.join(", ") || "none"})`);
  }
  // Stable sort: chain order breaks ties between equal timestamps.
  return { decision: counted.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)).at(-1) ?? null, ignored };
}

/** Who approved the canary step in `cycle` (any approval of that step, counted or not: the stricter rule; every cycle when absent). */
export function canaryApproversOf(approvals: readonly RecordedApproval[], cycle?: number): Set<string> {
  return new Set(approvals.filter((a) => a.step === "canary" && a.decision === "approve" && (cycle === undefined || a.cycle === cycle)).map((a) => a.actor.id));
}
