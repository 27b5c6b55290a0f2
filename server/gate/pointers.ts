// Two pointers per agent, never aliases: `latest candidate` follows every update an algorithm writes;
// `approved default` moves only through a passing, fresh, approved receipt, or back to an earlier approved
// default. Pure rules here; the records and their append-only history live in the database.
import { hasScope } from "@/lib/auth/scopes";
import type { Digest } from "./digest";
import { movingNameIn } from "./receipt/exact-names";
import { candidateIdentity } from "./evidence/derive";
import { evaluateGate, type GateInput, type GateReport } from "./gate";
import { decisionOn } from "./receipt/approval";
import type { ActorRef, ResourceRef } from "./receipt/refs";
import type { Receipt } from "./receipt/view";

export type AgentPointers = {
  agent: string;
  latestCandidate: ResourceRef | null;
  approvedDefault: (ResourceRef & { receiptDigest: Digest }) | null;
};

export type PointerMove = {
  agent: string;
  pointer: "latest-candidate" | "approved-default";
  from: ResourceRef | null;
  to: ResourceRef;
  by: string;
  at: string;
  /** The receipt (chain head) that justified an approved-default move; null for latest-candidate moves. */
  receiptDigest: Digest | null;
  reason: string;
};

const refOf = (r: ResourceRef): ResourceRef => ({ resourceId: r.resourceId, version: r.version, digest: r.digest });

/** An algorithm wrote an update: only the latest-candidate pointer moves. */
export function advanceLatestCandidate(
  pointers: AgentPointers,
  candidate: ResourceRef,
  by: string,
  at: string,
): { pointers: AgentPointers; move: PointerMove } {
  const moving = movingNameIn(candidate.resourceId);
  if (moving) throw new Error(`a pointer targets one exact resource, not the moving name "${moving}"`);
  const move: PointerMove = {
    agent: pointers.agent,
    pointer: "latest-candidate",
    from: pointers.latestCandidate,
    to: refOf(candidate),
    by,
    at,
    receiptDigest: null,
    reason: "an algorithm wrote a new resource update",
  };
  return { pointers: { ...pointers, latestCandidate: refOf(candidate) }, move };
}

export type ApprovedDefaultRead = { found: true; target: ResourceRef & { receiptDigest: Digest } } | { found: false; reason: string };

/** What a production consumer gets. Never falls back to the latest candidate. */
export function readApprovedDefault(pointers: AgentPointers): ApprovedDefaultRead {
  if (!pointers.approvedDefault) return { found: false, reason: `no approved default for ${pointers.agent} yet` };
  return { found: true, target: { ...pointers.approvedDefault } };
}

export type MoveDecision = { allowed: true; move: PointerMove; pointers: AgentPointers } | { allowed: false; reasons: string[] };

/**
 * Whether the approved default may move to this receipt's candidate, and why not. Evaluates the gate itself,
 * so a verdict cannot be passed in from elsewhere.
 */
export function decideDefaultMove(
  input: Omit<GateInput, "receipt"> & { pointers: AgentPointers; receipt: Receipt; receiptHead: Digest },
): MoveDecision & { report: GateReport } {
  const { pointers, receipt, receiptHead } = input;
  const report = evaluateGate(input);
  const reasons: string[] = [];
  const candidate = candidateIdentity(receipt).ref;
  const current = pointers.approvedDefault;
  if (receipt.stage1.agent !== pointers.agent) reasons.push(`the receipt is for ${receipt.stage1.agent}, not ${pointers.agent}`);
  if (report.verdict !== "PROMOTE TO DEFAULT") reasons.push(`the verdict is ${report.verdict}: ${report.sentence}`);
  for (const s of report.freshness.stale) reasons.push(`check ${s.check} is stale: ${s.reasons.map((r) => r.sentence).join("; ")}`);
  if (!candidate) reasons.push("the candidate's digest is not known");
  const parent = receipt.stage1.parent;
  if (current && current.digest !== parent.digest) {
    reasons.push(`the candidate was judged against ${parent.resourceId}, but the approved default is now ${current.resourceId}: re-run the gate`);
  }
  if (current && candidate && current.digest === candidate.digest) reasons.push(`${candidate.resourceId} already is the approved default`);
  const { stage1 } = receipt;
  const { decision } = decisionOn(receipt.approvals, "default", receipt.canaryStageDigest, stage1.approvers.default, stage1.declaredBy, input.decisions, receipt.cycle);
  if (decision?.decision !== "approve") reasons.push("no verified, signed, authorized approval of the default step is recorded");
  if (reasons.length || !candidate || !decision) return { allowed: false, reasons, report };

  const move: PointerMove = {
    agent: pointers.agent,
    pointer: "approved-default",
    from: current && refOf(current),
    to: refOf(candidate),
    by: decision.actor.id,
    at: input.now.toISOString(),
    receiptDigest: receiptHead,
    reason: report.sentence,
  };
  return { allowed: true, move, pointers: { ...pointers, approvedDefault: { ...refOf(candidate), receiptDigest: receiptHead } }, report };
}

/** Moving the approved default back to an earlier approved default: needs `rollback:execute` and history. */
export function decideRollback(input: {
  pointers: AgentPointers;
  history: readonly PointerMove[];
  target: ResourceRef;
  actor: ActorRef;
  at: string;
  reason: string;
}): MoveDecision {
  const { pointers, target, actor } = input;
  const reasons: string[] = [];
  if (!hasScope(actor.roles, "rollback:execute")) reasons.push(`${actor.id} lacks the "rollback:execute" scope`);
  const earlier = input.history.findLast((m) => m.agent === pointers.agent && m.pointer === "approved-default" && m.to.digest === target.digest);
  if (!earlier?.receiptDigest) reasons.push(`${target.resourceId} was never an approved default of ${pointers.agent}`);
  if (pointers.approvedDefault?.digest === target.digest) reasons.push(`${target.resourceId} already is the approved default`);
  if (reasons.length || !earlier?.receiptDigest) return { allowed: false, reasons };
  const move: PointerMove = {
    agent: pointers.agent,
    pointer: "approved-default",
    from: pointers.approvedDefault && refOf(pointers.approvedDefault),
    to: refOf(target),
    by: actor.id,
    at: input.at,
    receiptDigest: earlier.receiptDigest,
    reason: `rollback: ${input.reason}`,
  };
  return { allowed: true, move, pointers: { ...pointers, approvedDefault: { ...refOf(target), receiptDigest: earlier.receiptDigest } } };
}
