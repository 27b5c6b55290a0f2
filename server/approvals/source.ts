// Where approvals read a candidate's sealed receipt and the versions in force, and where they append the
// approval link. Everything runs on the caller's client, so inside the approval's own transaction the
// receipt, the current versions, the pointer move and the audit row are one atomic unit.
import type { Db, Tx } from "@/server/db/client";
import type { GatePolicy } from "@/server/gate/policy";
import type { LinkContent, SealedLink } from "@/server/gate/receipt/seal";
import type { SignedDecisions } from "@/server/gate/receipt/signed-decisions";
import type { LateEvidence } from "@/server/gate/freshness";
import type { VersionSet } from "@/server/gate/versions";
import type { GateReport } from "@/server/gate/gate";
import type { ParentLoad } from "@/server/gate/parent-load";
import type { Receipt } from "@/server/gate/receipt/view";

export type CandidateFacts = {
  id: string;
  agent: string;
  resourcesId: string;
  version: number;
  digest: string;
  parent: { resourcesId: string; version: number; digest: string };
  createdById: string;
  trainingRunId: string | null;
};

export type ReceiptState = {
  candidate: CandidateFacts;
  chain: SealedLink[];
  policy: GatePolicy;
  currentVersions: VersionSet;
  /** The signed decisions behind the chain's approval links (server/receipts/decision-signatures.ts). */
  decisions: SignedDecisions;
  /** Admitted rollouts that changed after stage 2 was sealed. */
  lateEvidence?: readonly LateEvidence[];
  /** Whether the exact parent loads now, read on the same client (at commit: in the decision's transaction). */
  parentLoad?: ParentLoad;
  /** The chain already parsed and judged at `now`, when the source did so (a 10,000-rollout stage 2 is not parsed twice). */
  judged?: { receipt: Receipt; report: GateReport; now: Date };
};

export type ReceiptSource = {
  /** The candidate, its sealed chain, the policy, the versions in force at `now` and its signed decisions; null if unknown. */
  load(db: Db | Tx, candidateId: string, now?: Date): Promise<ReceiptState | null>;
  /** Seals an approval link onto the stored chain inside `tx` (which holds the candidate's receipt lock). */
  sealApproval(tx: Tx, candidateId: string, content: LinkContent<"approval">, sealedAt: string): Promise<SealedLink>;
  /** Every candidate id of an agent (or all agents) with its verdict-relevant state, newest first. */
  listCandidateIds(db: Db | Tx, agent?: string): Promise<string[]>;
};
