// What an approver signs. The payload names exactly what they saw: the receipt (its chain head and the link
// decided on), the verdict, every check's status with the versions it was computed against, the decision,
// the pointer move it causes and the canary boundary. The server issues it with a nonce and expiry
// (server/auth/signing.ts); its canonical digest is the WebAuthn challenge or the bytes a release bot signs.
import { z } from "zod";
import { ZDigest, type Digest } from "@/server/gate/digest";
import type { GateReport } from "@/server/gate/gate";
import { ZResourceRef, type ResourceRef } from "@/server/gate/receipt/refs";
import type { CanaryBoundary } from "@/server/gate/receipt/stage1";
import { ZJson } from "@/server/gate/digest";

export const APPROVAL_PURPOSE = "lightgate.approval/v1";
export const ROLLBACK_PURPOSE = "lightgate.rollback/v1";
export const REJECTION_PURPOSE = "lightgate.rejection/v1";

export const ZPointerMoveIntent = z.object({
  kind: z.enum(["canary", "approved_default"]),
  from: ZResourceRef.nullable(),
  to: ZResourceRef,
});
export type PointerMoveIntent = z.infer<typeof ZPointerMoveIntent>;

/** Who signs, and the roles they hold for the agent. */
const ZSigner = z.object({ kind: z.enum(["user", "service"]), id: z.string(), name: z.string(), roles: z.array(z.string()) });

export const ZApprovalPayloadData = z.object({
  kind: z.literal("approval"),
  agent: z.string().min(1),
  candidateId: z.string().min(1),
  candidate: ZResourceRef,
  step: z.enum(["canary", "default"]),
  decision: z.literal("approve"),
  /** Head of the sealed chain when the page was loaded: the receipt being approved. */
  receiptDigest: ZDigest,
  /** The sealed link the approval decides on (latest stage 3, or the canary stage). */
  approves: ZDigest,
  verdict: z.string(),
  checks: z.array(z.object({ id: z.number().int(), scope: z.string(), status: z.string(), computedAt: z.string().nullable(), versions: z.record(z.string(), ZJson) })),
  pointer: ZPointerMoveIntent,
  canaryBoundary: ZJson,
  approver: ZSigner,
  comment: z.string().max(2000),
});
export type ApprovalPayloadData = z.infer<typeof ZApprovalPayloadData>;

/** A rejection names what the rejecter saw — the receipt head, the link decided on, the verdict — and why. */
export const ZRejectionPayloadData = z.object({
  kind: z.literal("rejection"),
  agent: z.string().min(1),
  candidateId: z.string().min(1),
  candidate: ZResourceRef,
  step: z.enum(["canary", "default"]),
  decision: z.literal("reject"),
  receiptDigest: ZDigest,
  approves: ZDigest,
  verdict: z.string(),
  comment: z.string().min(3).max(2000),
  approver: ZSigner,
});
export type RejectionPayloadData = z.infer<typeof ZRejectionPayloadData>;

export const ZRollbackPayloadData = z.object({
  kind: z.literal("rollback"),
  agent: z.string().min(1),
  pointer: ZPointerMoveIntent,
  /** The receipt that justified the target when it was last the approved default (null: the tested exact parent). */
  targetReceipt: ZDigest.nullable(),
  reason: z.string().min(1).max(2000),
  approver: ZSigner,
});
export type RollbackPayloadData = z.infer<typeof ZRollbackPayloadData>;

export function checksSeen(report: GateReport): ApprovalPayloadData["checks"] {
  const admission = report.checks.map((c) => ({ id: c.id, scope: "admission", status: c.status, computedAt: c.computedAt, versions: c.versions }));
  const stage = (report.canaryStageChecks ?? []).map((c) => ({ id: c.id, scope: "canary-stage", status: c.status, computedAt: c.computedAt, versions: c.versions }));
  return [...admission, ...stage];
}

export function approvalPayloadData(input: {
  agent: string;
  candidateId: string;
  candidate: ResourceRef;
  step: "canary" | "default";
  head: Digest;
  approves: Digest;
  report: GateReport;
  pointer: PointerMoveIntent;
  boundary: CanaryBoundary;
  approver: ApprovalPayloadData["approver"];
  comment: string;
}): ApprovalPayloadData {
  return {
    kind: "approval",
    agent: input.agent,
    candidateId: input.candidateId,
    candidate: input.candidate,
    step: input.step,
    decision: "approve",
    receiptDigest: input.head,
    approves: input.approves,
    verdict: input.report.verdict,
    checks: checksSeen(input.report),
    pointer: input.pointer,
    canaryBoundary: input.boundary,
    approver: input.approver,
    comment: input.comment,
  };
}
