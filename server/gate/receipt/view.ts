// The receipt as the checks read it: the current stages of a sealed chain, and every recorded approval.
import type { Digest } from "../digest";
import type { RecordedApproval } from "./approval";
import { CONTENT_SCHEMAS, type LinkContent, type LinkKind, type SealedLink } from "./seal";
import type { Stage1 } from "./stage1";
import type { Stage2 } from "./stage2";
import type { CanaryStage, Stage3 } from "./stage3";

export type Receipt = {
  stage1: Stage1;
  stage2?: Stage2;
  /** The latest stage 3 (a gate re-run supersedes earlier ones) and its sealed digest. */
  stage3?: Stage3;
  stage3Digest?: Digest;
  /** The canary stage sealed after the latest stage 3, if any. */
  canaryStage?: CanaryStage;
  canaryStageDigest?: Digest;
  /** The stage 3 the canary step's approval names: the latest one, or — when a re-run carried the sealed canary
   *  stage forward — the one that canary stage followed. */
  canaryApprovalTarget?: Digest;
  /** The promotion cycle: one per gate run or re-run (stage 3). Separation of duties is judged within it. */
  cycle: number;
  /** All approval links in the chain (approvals and rejections, each with its link digest); a check counts only
   *  those naming the current stage's digest and resting on a verified signed decision. */
  approvals: RecordedApproval[];
};

function contentOf<K extends LinkKind>(link: SealedLink, kind: K): LinkContent<K> {
  return CONTENT_SCHEMAS[kind].parse(link.content) as LinkContent<K>;
}

/** Reads a chain that verifyChain accepted. Throws when it has no stage 1. */
export function receiptView(chain: readonly SealedLink[]): Receipt {
  const first = chain[0];
  if (!first || first.kind !== "stage1") throw new Error("a receipt starts with its stage 1");
  const receipt: Receipt = { stage1: contentOf(first, "stage1"), approvals: [], cycle: 0 };
  for (const link of chain.slice(1)) {
    if (link.kind === "stage2") receipt.stage2 = contentOf(link, "stage2");
    if (link.kind === "stage3") {
      receipt.stage3 = contentOf(link, "stage3");
      receipt.stage3Digest = link.digest;
      receipt.cycle += 1;
      const carried = receipt.stage3.carriesCanaryStage !== undefined && receipt.stage3.carriesCanaryStage === receipt.canaryStageDigest;
      if (!carried) {
        delete receipt.canaryStage;
        delete receipt.canaryStageDigest;
        receipt.canaryApprovalTarget = link.digest;
      }
    }
    if (link.kind === "canary-stage") {
      receipt.canaryStage = contentOf(link, "canary-stage");
      receipt.canaryStageDigest = link.digest;
    }
    if (link.kind === "approval") receipt.approvals.push({ ...contentOf(link, "approval"), link: link.digest, cycle: receipt.cycle });
  }
  return receipt;
}
