// Reference candidates for approval tests, their chains held in memory (the DB-backed path has its own test): the
// spec's candidate A (READY FOR APPROVAL), its sealed receipt, the versions in force (which a test may bump, like
// a policy owner would), and a passkey-holding approver. The signed decisions behind the approval links are read
// from the real database by the same edge the product uses (server/receipts/decision-signatures.ts).
import type { Authority } from "@/server/gate/receipt/refs";
import { AGENT, PARENT, PARENT_RESOURCES, POLICY, VERSIONS } from "@/server/gate/reference/common";
import { createStore } from "@/server/store";
import type { NamedResources } from "@/server/store/types";
import { REFERENCE_NOW, sealReference } from "@/server/gate/reference/four-candidates";
import { rawCandidate, REFERENCE_SPECS, type ReferenceName } from "@/server/gate/reference/raw-evidence";
import { sealStage, type SealedLink } from "@/server/gate/receipt/seal";
import { receiptView } from "@/server/gate/receipt/view";
import { rerunStage3 } from "@/server/promotion/rerun";
import type { VersionSet } from "@/server/gate/versions";
import type { ReceiptSource, ReceiptState } from "@/server/approvals/source";
import { signedDecisionsFor } from "@/server/receipts/decision-signatures";
import { evaluateGate, type GateReport } from "@/server/gate/gate";
import { newId } from "@/server/digest";
import { beginPasskeyRegistration, finishPasskeyRegistration } from "@/server/auth/passkeys";
import { publicOrigin } from "@/server/auth/origin";
import { makeActor, type Actor } from "@/server/auth/actor";
import type { Database } from "@/server/db/client";
import type { RoleGrant } from "@/lib/auth/scopes";
import { makePerson } from "./auth";
import { AUDIT_LOCK } from "@/server/audit/audit-log";
import { movePointer, pointerLock, readPointer } from "@/server/candidates/pointers";
import { SoftAuthenticator } from "@/server/auth/soft-authenticator";
import type { Decision, MovablePointer } from "@/server/promotion/guards";

export { AGENT, PARENT, REFERENCE_NOW };

export type ReferenceWorld = {
  source: ReceiptSource;
  /** Adds a reference candidate (without its recorded approval); returns its candidate id. */
  add(name: ReferenceName, patch?: { declaredBy?: string; createdById?: string; trainingRunId?: string; canaryApprovers?: Authority }): string;
  chain(candidateId: string): SealedLink[];
  /** The bounded canary ran: its own stage is sealed (same canary evidence and rollback test, versions in force). */
  sealCanaryStage(candidateId: string, at: string): void;
  /** A gate re-run: a new stage 3 judged with the versions in force (the same evidence), through the product's re-run rule. */
  rerun(candidateId: string, at: string): void;
  /** A new permission is in scope: an earlier canary does not cover it (the canary stage's checks 6–7 go stale). */
  grantPermission(permission: string): void;
  /** A policy owner publishes a new evaluator version: every receipt judged on the old one goes stale. */
  bumpEvaluator(): void;
  versions(): VersionSet;
  /** The gate on a candidate's receipt now, with its signed decisions as stored in `db`. */
  judge(db: Database["db"], candidateId: string, now: Date): Promise<GateReport>;
};

type HeldReceipt = Omit<ReceiptState, "decisions">;

export function referenceWorld(): ReferenceWorld {
  const receipts = new Map<string, HeldReceipt>();
  let versions: VersionSet = VERSIONS;
  const source: ReceiptSource = {
    async load(db, id) {
      const s = receipts.get(id);
      if (!s) return null;
      const decisions = await signedDecisionsFor(db, s.candidate, receiptView(s.chain));
      return { ...s, chain: [...s.chain], currentVersions: versions, decisions };
    },
    async sealApproval(_tx, id, content, sealedAt) {
      const { chain } = receipts.get(id)!;
      const link = sealStage(chain, "approval", content, sealedAt);
      chain.push(link);
      return link;
    },
    async listCandidateIds() {
      return [...receipts.keys()].reverse();
    },
  };
  return {
    source,
    add(name, patch = {}) {
      const raw = rawCandidate(REFERENCE_SPECS[name]);
      if (patch.declaredBy) raw.stage1 = { ...raw.stage1, declaredBy: patch.declaredBy };
      if (patch.canaryApprovers) raw.stage1 = { ...raw.stage1, approvers: { ...raw.stage1.approvers, canary: patch.canaryApprovers } };
      const chain = sealReference(raw);
      // Unique per world: the decisions behind its links live in a database other tests share.
      const id = newId(`cand-${name}`);
      receipts.set(id, {
        candidate: {
          id,
          agent: AGENT,
          resourcesId: raw.candidate.resourceId,
          version: raw.candidate.version,
          digest: raw.candidate.digest,
          parent: { resourcesId: PARENT.resourceId, version: PARENT.version, digest: PARENT.digest },
          createdById: patch.createdById ?? raw.stage1.declaredBy,
          trainingRunId: patch.trainingRunId ?? null,
        },
        chain,
        policy: POLICY,
        currentVersions: versions,
      });
      return id;
    },
    chain: (id) => [...receipts.get(id)!.chain],
    sealCanaryStage(id, at) {
      const { chain } = receipts.get(id)!;
      const stage3 = receiptView(chain).stage3!;
      chain.push(sealStage(chain, "canary-stage", { canary: stage3.canary!, rollbackTest: stage3.rollbackTest!, computedAt: at, versions }, at));
    },
    rerun(id, at) {
      const { chain } = receipts.get(id)!;
      chain.push(sealStage(chain, "stage3", rerunStage3(chain, { computedAt: at, versions, policy: POLICY, now: new Date(at) }), at));
    },
    grantPermission(permission) {
      versions = { ...versions, permissions: [...versions.permissions, permission] };
    },
    bumpEvaluator() {
      versions = { ...versions, evaluator: `${versions.evaluator}+1` };
    },
    versions: () => versions,
    async judge(db, id, now) {
      const state = (await source.load(db, id))!;
      return evaluateGate({ receipt: receiptView(state.chain), policy: state.policy, currentVersions: state.currentVersions, now, decisions: state.decisions });
    },
  };
}

/**
 * Every reference candidate A has the same digest, and tests of one file share a database: before each test both
 * pointers go back to the exact parent, so a canary or default approval is a real move (never X → X, refused).
 */
export async function pointersBackToParent(database: Database, agent = AGENT) {
  await database.transaction(
    async (tx) => {
      for (const kind of ["canary", "approved_default"] as const) {
        const current = await readPointer(tx, agent, kind);
        if (!current || current.digest === PARENT.digest) continue;
        const to = { resourcesId: PARENT.resourceId, version: PARENT.version, digest: PARENT.digest, candidateId: null, receiptDigest: null };
        await movePointer(tx, { agent, kind, decision: fixtureMove(kind, current.digest, PARENT.digest), to, actor: SETUP, reason: "test setup: back to the exact parent" });
      }
    },
    { locks: [AUDIT_LOCK, pointerLock(agent)] },
  );
}
/** A test fixture's own pointer move, stated as a decision: the writer still checks it against the pointer at commit. */
export const fixtureMove = (pointer: MovablePointer, from: string | null, to: string): Decision => ({ allowed: true, move: { pointer, from, to }, next: "declared", sentence: "test fixture" });
const SETUP = { kind: "system" as const, id: "test", name: "Test setup", grants: [] };

/**
 * Stores `resources` as version 1 of their reference id (default: the exact parent) unless there already: a
 * rollback target must load by version and digest, as the product checks at every rollback.
 */
export async function storeResourcesOf(database: Database, ref: { resourceId: string; version: number } = PARENT, resources: NamedResources = PARENT_RESOURCES) {
  const store = createStore(database);
  try {
    if (await store.resourcesVersion(ref.resourceId, ref.version)) return;
    const put = await store.updateResources(ref.resourceId, resources);
    if (put.version !== ref.version) throw new Error(`${ref.resourceId} stored as v${put.version}, not v${ref.version}`);
  } finally {
    await store.close();
  }
}

/** A person with the given grants and one registered software passkey. */
export async function personWithPasskey(database: Database, grants: RoleGrant[], name: string): Promise<{ actor: Actor; key: SoftAuthenticator }> {
  const person = await makePerson(database, grants, name);
  const actor = makeActor("user", person.id, person.name, grants, { email: person.email });
  const key = new SoftAuthenticator(publicOrigin().origin);
  const { nonce, options } = await beginPasskeyRegistration(database, actor);
  await finishPasskeyRegistration(database, actor, { nonce, name: "Laptop", response: key.register(options) });
  return { actor, key };
}
