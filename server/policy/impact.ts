// What publishing a registry record would make stale, before anyone publishes it. The record is validated
// exactly as publishing validates it; then, for every agent it would apply to, the versions in force and the
// promotion policy are rebuilt with it (server/receipts/versions.ts `versionsFrom`, registries.ts
// `policyFrom` — what `gateReport` reads) and each candidate's stored receipt is judged by the pure gate
// twice, now and as if published. Checks whose status moves are listed with the gate's own reason (a stale
// reason names the input that changed). Nothing is written.
import { candidateStatus, openChecks, type CandidateStatus } from "@/lib/candidates/status";
import { diffJson, type DiffEntry } from "@/lib/json/diff";
import type { Database } from "@/server/db/client";
import { digestOf, type Digest } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { evaluateGate, type GateReport } from "@/server/gate/gate";
import type { CheckResult, CheckStatus } from "@/server/gate/checks/types";
import { CHECK_IDS, CHECK_INPUTS, VERSION_KEYS, type VersionKey, type VersionSet } from "@/server/gate/versions";
import { candidateLabel } from "@/server/receipts/candidate-names";
import { ANY_AGENT, currentEntries, nextVersionLabel, policyFrom, validRegistryEntry, type RegistryKind, type RegistryRecord } from "@/server/receipts/registries";
import { gateReport } from "@/server/receipts/report";
import { versionsFrom } from "@/server/receipts/versions";

/** Candidates judged per agent (newest first); the page says when there were more. */
export const MAX_JUDGED = 100;

export type CheckChange = { check: number; title: string; scope: "admission" | "canary-stage"; now: CheckStatus; after: CheckStatus; why: string };
export type CandidateImpact = { id: string; title: string; label: string | null; agent: string; now: CandidateStatus; after: CandidateStatus; changes: CheckChange[] };
export type InputChange = { input: VersionKey; before: string; after: string; checks: number[] };
export type AgentImpact = {
  agent: string;
  /** Set when the agent has its own record of this name, which wins over an instance-wide one: nothing changes for it. */
  overriddenBy: string | null;
  inputs: InputChange[];
  policy: DiffEntry[];
  judged: number;
  candidates: number;
};
export type RegistryImpact = {
  kind: RegistryKind;
  name: string;
  agent: string;
  /** The version label it will be published under, and its digest. */
  version: string;
  digest: string;
  supersedes: { version: string; digest: string } | null;
  sameAsCurrent: boolean;
  agents: AgentImpact[];
  /** Only candidates whose verdict or some check would change. */
  changed: CandidateImpact[];
  unchanged: number;
};

const stable = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function inputChanges(before: VersionSet, after: VersionSet): InputChange[] {
  return VERSION_KEYS.filter((k) => stable(before[k]) !== stable(after[k])).map((k) => ({
    input: k,
    before: stable(before[k]),
    after: stable(after[k]),
    checks: CHECK_IDS.filter((c) => CHECK_INPUTS[c].includes(k)),
  }));
}

const statusOf = (r: GateReport) => candidateStatus(r.verdict, openChecks(r));
const why = (c: CheckResult) => (c.status === "stale" ? (c.stale?.reasons.map((r) => r.sentence).join("; ") ?? "stale") : c.explanation);

function checkChanges(now: GateReport, after: GateReport): CheckChange[] {
  const out: CheckChange[] = [];
  const scopes = [["admission", now.checks, after.checks], ["canary-stage", now.canaryStageChecks ?? [], after.canaryStageChecks ?? []]] as const;
  for (const [scope, a, b] of scopes) {
    for (const next of b) {
      const was = a.find((c) => c.id === next.id);
      if (was && was.status !== next.status) out.push({ check: next.id, title: next.title, scope, now: was.status, after: next.status, why: why(next) });
    }
  }
  return out;
}

async function affectedAgents(database: Database, agent: string): Promise<string[]> {
  if (agent !== ANY_AGENT) return [agent];
  const rows = await database.db.candidate.findMany({ distinct: ["agent"], select: { agent: true }, orderBy: { agent: "asc" } });
  return rows.map((r) => r.agent);
}

export type ImpactInput = { kind: RegistryKind; name: string; agent: string; version?: string; body: unknown };

export async function registryImpact(database: Database, input: ImpactInput, now: Date = new Date()): Promise<RegistryImpact> {
  const body = validRegistryEntry(input);
  const { kind, name, agent } = input;
  const db = database.db;
  const last = await db.registryEntry.findFirst({ where: { kind, name, agent }, orderBy: { seq: "desc" } });
  const seq = (last?.seq ?? 0) + 1;
  const version = input.version ?? nextVersionLabel(last, seq);
  // Refused as publishing would refuse it, so the preview never promises a publication that cannot happen.
  if (await db.registryEntry.findUnique({ where: { kind_name_agent_version: { kind, name, agent, version } } })) {
    throw new DomainError("CONFLICT", `version: ${kind} ${name} already has a version "${version}" (published versions are immutable)`, "version");
  }
  const digest = digestOf(body);
  const record: RegistryRecord = { kind, name, agent, seq, version, digest, body, createdById: "(preview)", createdAt: now };
  const agents: AgentImpact[] = [];
  const changed: CandidateImpact[] = [];
  let unchanged = 0;
  for (const a of await affectedAgents(database, agent)) {
    const before = await currentEntries(db, a);
    const held = before.find((e) => e.kind === kind && e.name === name);
    const candidates = await db.candidate.findMany({ where: { agent: a }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select: { id: true, agent: true, resourcesId: true, version: true } });
    if (agent === ANY_AGENT && held && held.agent !== ANY_AGENT) {
      agents.push({ agent: a, overriddenBy: `${a}'s own ${kind} ${name} v${held.version}`, inputs: [], policy: [], judged: 0, candidates: candidates.length });
      unchanged += candidates.length;
      continue;
    }
    const after = [...before.filter((e) => !(e.kind === kind && e.name === name)), record];
    const placeholder = digestOf({ parent: "unchanged" }) as Digest;
    const policyBefore = policyFrom(before);
    const policyAfter = policyFrom(after);
    const judged = candidates.slice(0, MAX_JUDGED);
    agents.push({
      agent: a,
      overriddenBy: null,
      inputs: inputChanges(versionsFrom(before, placeholder), versionsFrom(after, placeholder)),
      policy: diffJson(policyBefore, policyAfter).entries,
      judged: judged.length,
      candidates: candidates.length,
    });
    for (const c of judged) {
      const stored = await gateReport(database, c.id, now);
      if (!stored.receipt || !stored.report) {
        unchanged++;
        continue;
      }
      const afterReport = evaluateGate({
        receipt: stored.receipt,
        policy: policyAfter,
        currentVersions: versionsFrom(after, stored.versions.parent as Digest),
        now,
        decisions: stored.decisions,
        lateEvidence: stored.lateEvidence,
        parentLoad: stored.parentLoad,
      });
      const changes = checkChanges(stored.report, afterReport);
      const [s0, s1] = [statusOf(stored.report), statusOf(afterReport)];
      if (!changes.length && s0 === s1) {
        unchanged++;
        continue;
      }
      changed.push({ id: c.id, ...candidateLabel(c), agent: a, now: s0, after: s1, changes });
    }
  }
  return {
    kind,
    name,
    agent,
    version,
    digest,
    supersedes: held(last),
    sameAsCurrent: last?.digest === digest,
    agents,
    changed,
    unchanged,
  };
}

const held = (last: { version: string; digest: string } | null) => (last ? { version: last.version, digest: last.digest } : null);
