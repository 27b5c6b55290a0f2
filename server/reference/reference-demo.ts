// The four-candidate reference through the store: registries and the lineage root, then for each candidate
// its rollouts/attempts/spans written into the store, registration, stage 1, stage 2 built from the store's
// rollups and stage 3 (its locked gate's rollouts stored too, named by the case results) — then the gate. A candidate whose verdict then waits for an approval (A) gets one the
// way the dashboard makes it: a real person with the canary approver role signs it with a registered passkey
// (reference-approver.ts). Verdicts come out of the checks.
import type { Database } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import type { AuditActor } from "@/server/audit/audit-log";
import { digestOf } from "@/server/digest";
import { registerCandidate } from "@/server/candidates/register";
import { readPointer } from "@/server/candidates/pointers";
import { AGENT, DESTINATION, EVALUATOR, EVALUATOR_BODY, PARENT, PARENT_RESOURCES, POLICY, T0, TOOLS, VERSIONS, stage1For } from "@/server/gate/reference/common";
import { REFERENCE_APPROVAL_COMMENT, REFERENCE_NOW, REFERENCE_ORDER, referenceSummary, type ReferenceSummary } from "@/server/gate/reference/four-candidates";
import { candidateResources, rawCandidate, REFERENCE_SPECS, type RawCandidate, type ReferenceName } from "@/server/gate/reference/raw-evidence";
import { openReceipt, sealLink } from "@/server/receipts/links";
import { writeLockedGateTraces } from "./locked-gate-traces";
import { referenceApprover, signCanaryApproval, type ReferenceSigner } from "./reference-approver";
import { gateReport } from "@/server/receipts/report";
import { listRegistry, publishRegistryEntry, type PublishInput } from "@/server/receipts/registries";
import { stage2FromStore } from "@/server/receipts/rollups";
import { currentVersions } from "@/server/receipts/versions";
import { adoptRootDefault } from "@/server/receipts/default-pointer";
import { writeRawToStore } from "@/server/receipts/reference-store";
import { storeFor } from "@/server/store";

export const REFERENCE_POLICY_OWNER: AuditActor = { kind: "system", id: "reference-fixture", name: "Reference fixture (policy owner)", grants: [] };
const TRAINER: AuditActor = { kind: "service", id: "svc-trainer-ppo", name: "PPO trainer", grants: [{ role: "algorithm", agent: null }] };

function referenceRegistry(): Omit<PublishInput, "actor">[] {
  const declared = stage1For("registry", PARENT).expectedEvidence;
  const entry = (kind: PublishInput["kind"], name: string, body: unknown, version?: string) => ({ kind, name, agent: AGENT, body, version });
  return [
    entry("evaluator", EVALUATOR.id, EVALUATOR_BODY, EVALUATOR.version),
    ...TOOLS.map((tool) => entry("tool_contract", tool, { tool, contract: 1 })),
    // environment + version name the simulated desk's distribution, so the admission gate can lock the held-out set.
    entry("task_distribution", "support-desk/tasks", { tasks: "support-desk", cases: ["billing", "shipping", "account"], environment: "support-desk", version: "v2" }, "4"),
    entry("retry_policy", AGENT, { rolloutConfig: { max_attempts: 3, retry_condition: ["failed", "timeout", "unresponsive"] }, budget: declared.retryBudget }),
    entry("model_server", "lightgate-policy-server", { endpoint: "http://127.0.0.1:8601/v1" }, "1.4.2"),
    entry("destination", DESTINATION, { kind: "ticket-db", reread: "ticket by id" }),
    entry("promotion_policy", AGENT, POLICY),
    ...POLICY.protectedFamilies.map((f) => entry("protected_family", f.family, { maxRegressions: f.maxRegressions })),
    entry("canary_boundary", AGENT, declared.canaryBoundary),
  ];
}

/** Publishes the reference registries, stores the parent's bytes and adopts it as the lineage root (once). */
export async function seedReferenceWorld(database: Database, actor: AuditActor) {
  // Check 1 loads the exact parent by version and digest, and a rollback returns to it: its bytes must be stored.
  const store = storeFor(database);
  if (!(await store.resourcesVersion(PARENT.resourceId, PARENT.version))) {
    const written = await store.updateResources(PARENT.resourceId, PARENT_RESOURCES);
    if (written.version !== PARENT.version) throw new Error(`the reference parent was stored as v${written.version}, not v${PARENT.version}`);
  }
  // Published once: what a policy owner publishes for the reference agent afterwards stays in force, and a later
  // start neither republishes nor re-checks it (the check below is of the fixture, not of the owner's edits).
  const fresh = (await listRegistry(database.db, { agent: AGENT, kind: "evaluator" })).length === 0;
  if (fresh) for (const e of referenceRegistry()) await publishRegistryEntry(database, { ...e, actor });
  if (!(await readPointer(database.db, AGENT, "approved_default"))) {
    await adoptRootDefault(database, { agent: AGENT, target: PARENT, actor, reason: "the support-desk policy in production before Lightgate", at: new Date(T0 * 1000 - 86400_000) });
  }
  if (!fresh) return;
  const versions = await currentVersions(database.db, AGENT);
  if (digestOf({ ...versions, permissions: [...versions.permissions].sort() }) !== digestOf({ ...VERSIONS, permissions: [...VERSIONS.permissions].sort() })) {
    throw new Error(`the registries do not reproduce the reference versions: ${JSON.stringify(versions)}`);
  }
}

export type SeededCandidate = { name: ReferenceName; candidateId: string };

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
/** Every ISO time inside `value`, `seconds` later (canary windows, verifications, the rollback test). */
function shiftIso<T>(value: T, seconds: number): T {
  if (typeof value === "string" && ISO.test(value)) return new Date(Date.parse(value) + seconds * 1000).toISOString() as T;
  if (Array.isArray(value)) return value.map((v) => shiftIso(v, seconds)) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shiftIso(v, seconds)])) as T;
  return value;
}
const later = (t: number | null | undefined, seconds: number) => (typeof t === "number" ? t + seconds : t);

/**
 * The fixture's evidence moved in time as a whole, so a demo seeded now reads consistently: rollouts, the
 * data cutoff, the canary window and the rollback test fall in the hours before the seal times, not months.
 */
function shiftRaw(raw: RawCandidate, seconds: number): RawCandidate {
  if (!seconds) return raw;
  const { rollouts, attempts, spans } = raw.store;
  return {
    ...raw,
    store: {
      rollouts: rollouts.map((r) => ({ ...r, end_time: later(r.end_time, seconds) ?? null })),
      attempts: attempts.map((a) => ({ ...a, start_time: a.start_time + seconds, end_time: later(a.end_time, seconds) ?? null })),
      spans: spans.map((x) => ({ ...x, end_time: later(x.end_time, seconds) ?? null })),
    },
    lockedGate: shiftIso(raw.lockedGate, seconds),
    canary: shiftIso(raw.canary, seconds),
    rollbackTest: shiftIso(raw.rollbackTest, seconds),
  };
}

/**
 * Signs the canary step the dashboard's way when the verdict waits for it. The signer is made on first need and
 * returned for the next candidate; a refusal (say the approver's role was revoked here) leaves it waiting.
 */
async function approveIfWaiting(database: Database, signer: ReferenceSigner | null | undefined, name: ReferenceName, candidateId: string, at: Date) {
  if ((await gateReport(database, candidateId, at)).report?.verdict !== "READY FOR APPROVAL") return signer;
  const held = signer === undefined ? await referenceApprover(database, REFERENCE_POLICY_OWNER) : signer;
  if (!held) return held;
  await signCanaryApproval(database, held, candidateId, REFERENCE_APPROVAL_COMMENT, at).catch((e: unknown) => {
    if (!(e instanceof DomainError)) throw e;
    console.warn(`reference: ${name}'s canary approval was refused (${e.message}); it stays READY FOR APPROVAL`);
  });
  return held;
}

/** Seal times keep the fixture's spacing but end just before `now`, so evidence ages count from there. */
const sealTimes = (now: Date) => (hoursAfterT0: number) => new Date(now.getTime() - (9 - hoursAfterT0) * 3600_000).toISOString();

const shiftedRaw = (name: ReferenceName, evidenceAt: Date) => shiftRaw(rawCandidate(REFERENCE_SPECS[name]), (evidenceAt.getTime() - REFERENCE_NOW.getTime()) / 1000);

/** A reference candidate's training evidence (rollouts, attempts, spans) in the store, its ids from `offset` on. */
export function writeReferenceEvidence(database: Database, name: ReferenceName, evidenceAt: Date, offset: number) {
  return writeRawToStore(database, shiftedRaw(name, evidenceAt), offset);
}

/**
 * A reference candidate declared as a training algorithm would: its rollouts in the store (unless
 * `evidenceStored`: written before, by writeReferenceEvidence at `evidenceAt`), its bytes, registration with
 * stage 1, and stage 2 built from the store's rollups with the versions in force. No gate run yet.
 * `offset`: where its store ids start (each candidate of one database needs its own).
 */
export async function declareReferenceCandidate(
  database: Database,
  name: ReferenceName,
  opts: { now: Date; offset: number; evidenceAt?: Date; evidenceStored?: boolean },
): Promise<{ candidateId: string; raw: RawCandidate }> {
  const raw = shiftedRaw(name, opts.evidenceAt ?? opts.now);
  const at = sealTimes(opts.now);
  if (!opts.evidenceStored) await writeRawToStore(database, raw, opts.offset);
  // Its bytes, as the algorithm that wrote it would have stored them: a pointer that names it serves them.
  const store = storeFor(database);
  if (!(await store.resourcesVersion(raw.candidate.resourceId, raw.candidate.version))) {
    const written = await store.updateResources(raw.candidate.resourceId, candidateResources(name));
    if (written.version !== raw.candidate.version) throw new Error(`reference ${name} was stored as v${written.version}, not v${raw.candidate.version}`);
  }
  const resource = { resourcesId: raw.candidate.resourceId, version: raw.candidate.version, digest: raw.candidate.digest };
  const candidate = await registerCandidate(database, { agent: AGENT, resource, stage1: raw.stage1, actor: TRAINER });
  await openReceipt(database, candidate.id, { sealedAt: at(0) });
  const stage2 = await stage2FromStore(database, { id: candidate.id, resourcesId: raw.candidate.resourceId }, await currentVersions(database.db, AGENT));
  await sealLink(database, candidate.id, "stage2", stage2, { sealedAt: at(5) });
  return { candidateId: candidate.id, raw };
}

/** The reference gate run's stage 3: the fixture's judged evidence, sealed with the versions in force when it ran. */
export async function sealReferenceStage3(database: Database, candidateId: string, raw: RawCandidate, computedAt: string) {
  const versions = await currentVersions(database.db, AGENT);
  const { resolution, lockedGate, canary, rollbackTest } = raw;
  return sealLink(database, candidateId, "stage3", { resolution, lockedGate, canary, rollbackTest, computedAt, versions }, { sealedAt: computedAt });
}

/**
 * Seeds the reference into `database`. A candidate whose verdict waits for the canary approval gets it, signed
 * by the fixture's approver, unless named in `withoutApproval`; the others' checks fail before approval could
 * count. Candidates already present are left as they are.
 */
export async function seedReferenceDemo(
  database: Database,
  opts: { withoutApproval?: readonly ReferenceName[]; only?: readonly ReferenceName[]; now?: Date } = {},
): Promise<SeededCandidate[]> {
  await seedReferenceWorld(database, REFERENCE_POLICY_OWNER);
  const now = opts.now ?? REFERENCE_NOW;
  const at = sealTimes(now);
  const seeded: SeededCandidate[] = [];
  let signer: ReferenceSigner | null | undefined;
  for (const [i, name] of REFERENCE_ORDER.entries()) {
    if (opts.only && !opts.only.includes(name)) continue;
    const { resourceId, version } = rawCandidate(REFERENCE_SPECS[name]).candidate;
    const existing = await database.db.candidate.findUnique({ where: { resourcesId_version: { resourcesId: resourceId, version } } });
    if (existing) {
      seeded.push({ name, candidateId: existing.id });
      continue;
    }
    const { candidateId, raw } = await declareReferenceCandidate(database, name, { now, offset: (i + 1) * 1e6 });
    // Each locked-gate case's two rollouts in the store, named by its case results: the page opens both traces.
    const lockedGate = await writeLockedGateTraces(database, candidateId, name, raw.lockedGate, (i + 1) * 1e6 + 5e5);
    // After the fixture's canary window (6.5 h → 7 h 10 min) and rollback test (7 h): the gate judged them.
    await sealReferenceStage3(database, candidateId, { ...raw, lockedGate }, at(7.25));
    if (!opts.withoutApproval?.includes(name)) signer = await approveIfWaiting(database, signer, name, candidateId, new Date(at(8)));
    seeded.push({ name, candidateId });
  }
  return seeded;
}

/** The `npm run gate:reference` document: each seeded candidate judged from the database. */
export async function referenceReport(database: Database, seeded: readonly SeededCandidate[], now: Date = REFERENCE_NOW): Promise<ReferenceSummary> {
  const results = [];
  for (const { name, candidateId } of seeded) {
    const stored = await gateReport(database, candidateId, now);
    if (!stored.report) throw new Error(`candidate ${name} (${candidateId}) has no verifiable receipt`);
    // What the summary says about pins and the rollback test comes from the sealed stage 3, not the fixture.
    const stage3 = stored.receipt?.stage3;
    const raw = rawCandidate(REFERENCE_SPECS[name]);
    const rollbackTest = stage3?.rollbackTest ?? { ...raw.rollbackTest, loaded: false, routedBack: false };
    results.push({ name, raw: { ...raw, resolution: stage3?.resolution ?? {}, rollbackTest }, chain: stored.chain, report: stored.report });
  }
  return referenceSummary(results);
}
