// What the promotion state machine reads: plain data, gathered by the database edge (server/approvals/
// promotion-facts.ts) from the receipt chain, the gate report, the pointers and their history. No database,
// no framework here: same facts, same decision.

export type Step = "canary" | "default";
export type PointerName = "canary" | "approved_default";

/** What a check said, and — when its evidence went stale — what it said before (stale hides nothing). */
export type CheckSaid = { check: number; title: string; status: "pass" | "fail" | "unavailable" | "stale"; was?: "pass" | "fail" | "unavailable"; said?: string; staleBecause?: string[] };

/** One thing that happened to the candidate, in chain / commit order. A cycle starts at each gate run, re-run or rollback. */
export type PromotionEvent =
  | { kind: "gate-run"; at: string }
  | { kind: "approval"; step: Step; decision: "approve" | "reject"; actorId: string; at: string }
  | { kind: "canary-sealed"; at: string }
  | { kind: "canary-aborted"; at: string; reason: string }
  | { kind: "rollback"; pointer: PointerName; at: string; by: string };

export type GatePicture = {
  verdict: "QUARANTINED" | "READY FOR APPROVAL" | "PROMOTE TO BOUNDED CANARY" | "PROMOTE TO DEFAULT";
  /** The step the gate's verdict is about. */
  step: Step;
  /** The checks that stand in the way (check 7 waiting for the approval itself excluded). */
  open: readonly CheckSaid[];
};

export type CanaryStageFacts = {
  state: "running" | "sealed" | "aborted";
  /** Still fresh against the versions in force (sealed stages only). */
  fresh: boolean;
  staleBecause: readonly string[];
  /** The gate run's deadline for the stage's rollouts, and the boundary's own time limit: two different clocks. */
  deadlineAt?: string | null;
  boundaryLimitSeconds?: number | null;
};

export type PromotionFacts = {
  candidate: { id: string; digest: string; resourceId: string; parentDigest: string };
  /** Who may never approve this candidate: its declarer, whoever started its training or owns its key. */
  excluded: readonly string[];
  history: readonly PromotionEvent[];
  /** null while no gate run finished. */
  gate: GatePicture | null;
  gateRunning: boolean;
  canaryStage: CanaryStageFacts | null;
  /** Each pointer's digest, and the candidate record it names (another candidate may share the digest). */
  pointers: { canary: string | null; approvedDefault: string | null; canaryCandidateId?: string | null; approvedDefaultCandidateId?: string | null };
  /** Digests that became the approved default through an approval (not a rollback), first time, oldest first. */
  approvedDefaults: readonly string[];
  /** Digests a rollback moved a pointer away from (they are never a rollback target again). */
  rolledBackFrom: readonly string[];
  /** A later candidate of the same agent became the approved default while this one was not. */
  supersededBy: string | null;
};

export type Viewer = { id: string; scopes: readonly string[]; hasSigningKey: boolean } | null;
