// The invariants the promotion model test checks after every step (listed in ARCHITECTURE.md, "Promotion"). Each
// reads the real database through the product's own readers and says, in a sentence, what broke.
import { approvalPanel } from "@/server/approvals/panel";
import { receiptSource } from "@/server/approvals/db-source";
import { verifyDecisionStatement } from "@/server/approvals/statement";
import { AGENT, PARENT } from "@/server/gate/reference/common";
import type { VersionSet } from "@/server/gate/versions";
import { receiptSigningKey } from "@/server/keys/signing-key";
import { promotionState } from "@/server/promotion/state";
import { getCandidate, listCandidates } from "@/server/receipts/candidates-view";
import { promotionFacts } from "@/server/receipts/promotion-facts";
import { gateReport } from "@/server/receipts/report";
import type { World } from "./world";

/**
 * Which version inputs each check's evidence was computed against (release-gate spec, "freshness"), written out
 * here rather than imported: the test must not judge the gate by the gate's own table.
 */
const INPUTS: Record<number, readonly (keyof VersionSet)[]> = {
  1: ["evaluator", "parent"],
  2: ["toolContracts", "taskDistribution"],
  3: ["retryPolicy"],
  4: ["evaluator", "parent", "taskDistribution"],
  5: ["evaluator", "parent", "taskDistribution"],
  6: ["toolContracts", "modelServer", "retryPolicy"],
  7: ["parent", "modelServer"],
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What the database held before a step: enough to tell what the step moved. */
export type Snapshot = { moves: number; pointers: string; refusals: number };

export async function snapshot(w: World): Promise<Snapshot> {
  const db = w.database.db;
  const [moves, pointers, refusals] = await Promise.all([
    db.pointerMove.count({ where: { kind: { in: ["canary", "approved_default"] } } }),
    db.pointer.findMany({ where: { kind: { in: ["canary", "approved_default"] } }, orderBy: { kind: "asc" }, select: { kind: true, digest: true, candidateId: true } }),
    db.auditEvent.count({ where: { action: { endsWith: ".refused" } } }),
  ]);
  return { moves, pointers: JSON.stringify(pointers), refusals };
}

/** A refused decision moved nothing and left exactly one audit row; an accepted one moved at most one pointer. */
export function checkStep(before: Snapshot, after: Snapshot, outcome: { ok: boolean; moves: "none" | "one" | "at-most-one" }, what: string) {
  if (!outcome.ok) {
    if (after.moves !== before.moves || after.pointers !== before.pointers) throw new Error(`${what}: refused, yet a pointer moved`);
    if (after.refusals !== before.refusals + 1) throw new Error(`${what}: refused, with ${after.refusals - before.refusals} audit rows for the refusal (want 1)`);
    return;
  }
  if (after.refusals !== before.refusals) throw new Error(`${what}: accepted, yet a refusal was audited`);
  const moved = after.moves - before.moves;
  if (outcome.moves === "none" && moved !== 0) throw new Error(`${what}: moved ${moved} pointers, none expected`);
  if (outcome.moves === "one" && moved !== 1) throw new Error(`${what}: moved ${moved} pointers, one expected`);
  if (outcome.moves === "at-most-one" && moved > 1) throw new Error(`${what}: moved ${moved} pointers`);
}

/**
 * Every pointer move of the promotion (canary, approved default) since the template: it continues from where the
 * pointer was (no lost update), a signed decision row whose DSSE envelope verifies under the server key records
 * it, an audit row records it, and its target's bytes load with their digest. The approved default and the latest
 * candidate are two rows, each written only by its own path.
 */
export async function checkPointerHistory(w: World, checkedSignatures: Set<string>) {
  const db = w.database.db;
  const key = await receiptSigningKey(db);
  const rows = await db.pointer.findMany({ where: { agent: AGENT } });
  const kinds = rows.map((r) => r.kind).sort();
  if (new Set(kinds).size !== kinds.length) throw new Error(`two pointer rows share a kind: ${kinds.join(", ")}`);
  const latest = rows.find((r) => r.kind === "latest_candidate");
  const approved = rows.find((r) => r.kind === "approved_default");
  if (latest && approved && latest.kind === approved.kind) throw new Error("the approved default and the latest candidate are the same row");
  for (const kind of ["canary", "approved_default"] as const) {
    const moves = await db.pointerMove.findMany({ where: { agent: AGENT, kind }, orderBy: [{ at: "asc" }, { id: "asc" }] });
    let at: string | null = null;
    for (const [i, m] of moves.entries()) {
      if (i > 0 && m.fromDigest !== at) throw new Error(`${kind} move ${m.id} starts from ${m.fromDigest}, but the pointer named ${at}`);
      at = m.toDigest;
      if (m.reason.startsWith("lineage root")) continue;
      if (!checkedSignatures.has(m.id)) {
        const decision = await db.approvalDecision.findFirst({ where: { agent: AGENT, pointerKind: kind, toDigest: m.toDigest, at: m.at, envelope: { not: null } } });
        if (!decision) throw new Error(`${kind} move ${m.id} (${m.reason}) has no signed decision`);
        const verified = await verifyDecisionStatement(JSON.parse(decision.envelope!), [key.publicKey]);
        const guard = decision.actorId === "lightgate-canary-guard";
        if (!verified.ok && !guard) throw new Error(`${kind} move ${m.id}: its decision's envelope does not verify (${verified.checks.filter((c) => !c.ok).map((c) => c.name).join(", ")})`);
        checkedSignatures.add(m.id);
      }
    }
    const audited = await db.auditEvent.count({ where: { action: `pointer.${kind}.move`, targetId: `${AGENT}/${kind}` } });
    if (audited !== moves.length) throw new Error(`${moves.length} ${kind} moves, ${audited} audit rows for them`);
    const row = rows.find((r) => r.kind === kind);
    if ((row?.digest ?? null) !== at) throw new Error(`the ${kind} pointer names ${row?.digest}, its history ends at ${at}`);
  }
  for (const r of rows) {
    const stored = await w.store.resourcesVersion(r.resourcesId, r.version);
    if (!stored) throw new Error(`the ${r.kind} pointer names ${r.resourcesId} v${r.version}, which does not load`);
  }
  if (!(await w.store.resourcesVersion(PARENT.resourceId, PARENT.version))) throw new Error("the exact parent's bytes are gone");
}

/**
 * For each declared candidate: no check passes on evidence computed against versions other than those in force;
 * and the candidate page reads the machine's state — for every candidate (`all`) the candidates list and the
 * approval panel too.
 */
export async function checkCandidates(w: World, opts: { pages: "all" | ReadonlySet<string> }) {
  const db = w.database.db;
  const list = opts.pages === "all" ? await listCandidates(w.database, { agent: AGENT, now: w.now }) : null;
  for (const c of w.declared.values()) {
    // A candidate no gate run judged yet has only stage 2 to pass on (checks 2–3): checked once a run seals, or when its page is.
    const pages = opts.pages === "all" || opts.pages.has(c.id);
    if (!pages && !(await db.receiptLink.count({ where: { candidateId: c.id, kind: "stage3" } }))) continue;
    const stored = await gateReport(w.database, c.id, w.now);
    const { receipt, report } = stored;
    if (!receipt || !report) continue;
    for (const check of report.checks) {
      if (check.status !== "pass") continue;
      const produced = check.id === 2 || check.id === 3 ? receipt.stage2?.versions : receipt.stage3?.versions;
      for (const key of INPUTS[check.id] ?? []) {
        if (produced && !same(produced[key], stored.versions[key])) throw new Error(`${c.name}: check ${check.id} passes on evidence computed with ${key} ${JSON.stringify(produced[key])}, in force ${JSON.stringify(stored.versions[key])}`);
      }
    }
    for (const check of report.canaryStageChecks ?? []) {
      if (check.status !== "pass" || !receipt.canaryStage) continue;
      for (const key of INPUTS[check.id] ?? []) {
        if (!same(receipt.canaryStage.versions[key], stored.versions[key])) throw new Error(`${c.name}: canary-stage check ${check.id} passes on evidence computed with another ${key}`);
      }
    }
    if (!pages) continue;
    const input = { candidate: { id: c.id, agent: AGENT, digest: stored.candidate.digest, resourcesId: stored.candidate.resourcesId, parent: { digest: stored.candidate.parentDigest } }, chain: stored.chain, excluded: stored.decisions.excluded, currentVersions: stored.versions, policy: stored.policy, lateEvidence: stored.lateEvidence };
    const machine = promotionState(await promotionFacts(db, input, receipt, report, w.now)).name;
    const page = (await getCandidate(w.database, c.id, w.now)).promotion?.state;
    const row = list ? list.find((x) => x.id === c.id)?.promotion?.state : machine;
    const panel = list ? (await approvalPanel(db, receiptSource, w.people.rosa.actor, c.id, w.now)).panel.promotion.state : machine;
    // The verdict "promote to default" is the approved default naming the candidate — until a rollback or a later
    // candidate takes it (while a re-run is gating, the machine says so first).
    if (report.verdict === "PROMOTE TO DEFAULT" && !["promoted", "rolled-back", "superseded", "gating"].includes(machine)) throw new Error(`${c.name}: the verdict is PROMOTE TO DEFAULT, but the machine says ${machine} (the approved default names ${(await db.pointer.findFirst({ where: { agent: AGENT, kind: "approved_default" } }))?.digest})`);
    if (page !== machine || row !== machine || panel !== machine) throw new Error(`${c.name}: the machine says ${machine}, the page ${page}, the list ${row}, the approval panel ${panel}`);
  }
}

/**
 * Safety, judged from the stored rows alone (not by the machine's own code): no pointer move whose from = to;
 * four eyes within a cycle — nobody approves the default step of a candidate whose canary step they approved
 * since its last gate run; and a candidate a rollback (or the guard's abort) moved a pointer away from is moved
 * back onto it by an approval only after a gate run sealed after that rollback.
 */
export async function checkSafety(w: World) {
  const db = w.database.db;
  const moves = await db.pointerMove.findMany({ where: { agent: AGENT, kind: { in: ["canary", "approved_default"] } }, select: { kind: true, fromDigest: true, toDigest: true, reason: true } });
  const noop = moves.find((m) => m.fromDigest === m.toDigest);
  if (noop) throw new Error(`the ${noop.kind} moved ${noop.fromDigest} → itself (${noop.reason})`);
  const stage3At = new Map<string, string[]>();
  for (const c of w.declared.values()) {
    // The rows as stored (the chain's integrity is the receipts' own tests' business): kinds in order, approvals' content.
    const chain = await db.receiptLink.findMany({ where: { candidateId: c.id }, orderBy: { index: "asc" }, select: { kind: true, sealedAt: true, index: true } });
    const approvals = new Map((await db.receiptLink.findMany({ where: { candidateId: c.id, kind: "approval" }, select: { index: true, content: true } })).map((l) => [l.index, JSON.parse(l.content) as { step: string; decision: string; actor: { id: string } }]));
    stage3At.set(c.id, chain.filter((l) => l.kind === "stage3").map((l) => l.sealedAt));
    const canaryApprovers = new Set<string>();
    for (const link of chain) {
      if (link.kind === "stage3") canaryApprovers.clear();
      if (link.kind !== "approval") continue;
      const a = approvals.get(link.index)!;
      if (a.decision !== "approve") continue;
      if (a.step === "canary") canaryApprovers.add(a.actor.id);
      else if (canaryApprovers.has(a.actor.id)) throw new Error(`${c.name}: ${a.actor.id} approved both steps of one cycle`);
    }
  }
  const decisions = await db.approvalDecision.findMany({ where: { agent: AGENT, action: { in: ["approve", "rollback"] } }, orderBy: [{ at: "asc" }, { id: "asc" }] });
  for (const [i, d] of decisions.entries()) {
    if (d.action !== "approve" || !d.candidateId) continue;
    const away = decisions.slice(0, i).findLast((r) => r.action === "rollback" && r.pointerKind === d.pointerKind && r.fromDigest === d.toDigest);
    if (!away) continue;
    const rerun = (stage3At.get(d.candidateId) ?? []).some((at) => Date.parse(at) >= away.at.getTime());
    if (!rerun) throw new Error(`an approval at ${d.at.toISOString()} moved the ${d.pointerKind} back onto ${d.toDigest}, rolled back from at ${away.at.toISOString()}, without a gate run since`);
  }
}
