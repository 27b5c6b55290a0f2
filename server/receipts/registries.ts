// Versioned, digest-pinned registries: evaluators, tool contracts, task distributions, protected-case
// families, the promotion policy, canary boundaries, retry policies, model servers and destinations.
// Publishing appends a version (the table is append-only); the highest `seq` per (kind, name, agent) is
// current, and an agent's own entry overrides the instance-wide ("*") one of the same name.
import { z } from "zod";
import type { Database, Db, Tx } from "@/server/db/client";
import { AUDIT_LOCK, appendAudit, type AuditActor } from "@/server/audit/audit-log";
import { canonicalJson, digestOf, type Digest } from "@/server/digest";
import { DomainError } from "@/server/errors";
import { ZJson } from "@/server/gate/digest";
import { DEFAULT_GATE_POLICY, withCheck4Floor, ZGatePolicy, ZPublishedGatePolicy, type GatePolicy } from "@/server/gate/policy";
import { movingNameIn, movingNameMessage } from "@/server/gate/receipt/exact-names";
import { ZExpectedEvidence } from "@/server/gate/receipt/stage1";

export const REGISTRY_KINDS = [
  "evaluator",
  "tool_contract",
  "task_distribution",
  "protected_family",
  "promotion_policy",
  "canary_boundary",
  "retry_policy",
  "model_server",
  "destination",
] as const;
export type RegistryKind = (typeof REGISTRY_KINDS)[number];
export const ANY_AGENT = "*";

const ZRecord = z.record(z.string(), ZJson);
export const REGISTRY_BODIES: Record<RegistryKind, z.ZodType> = {
  evaluator: ZRecord,
  tool_contract: ZRecord,
  task_distribution: ZRecord,
  protected_family: z.object({ maxRegressions: z.number().int().min(0), cases: z.array(z.string().min(1)).optional() }).catchall(ZJson),
  promotion_policy: ZPublishedGatePolicy,
  canary_boundary: ZExpectedEvidence.shape.canaryBoundary,
  retry_policy: ZRecord,
  model_server: ZRecord,
  destination: ZRecord,
};

export type RegistryRecord = {
  kind: RegistryKind;
  name: string;
  agent: string;
  seq: number;
  version: string;
  digest: Digest;
  body: unknown;
  createdById: string;
  createdAt: Date;
};

type Row = Omit<RegistryRecord, "kind" | "digest" | "body"> & { kind: string; digest: string; body: string };
const toRecord = (r: Row): RegistryRecord => ({ ...r, kind: r.kind as RegistryKind, digest: r.digest as Digest, body: JSON.parse(r.body) as unknown });

// Kinds a receipt pins by `name@version` (versions.ts): their names, like every version, must be exact.
const PINNED_BY_NAME: ReadonlySet<RegistryKind> = new Set(["evaluator", "task_distribution", "model_server"]);

/** A moving name in what publishing would pin — the version always, the name where it is part of the pin — or null. */
export function registryPinProblem(input: { kind: RegistryKind; name: string; version?: string }): { field: "name" | "version"; message: string } | null {
  const version = input.version === undefined ? null : movingNameIn(input.version);
  if (version) return { field: "version", message: movingNameMessage(version) };
  const name = PINNED_BY_NAME.has(input.kind) ? movingNameIn(input.name) : null;
  return name ? { field: "name", message: movingNameMessage(name) } : null;
}

/**
 * The label a publication without one gets: one more than the current label when that is a whole number
 * (after "3" comes "4", never "2"), else the publication number.
 */
export function nextVersionLabel(last: { version: string } | null, seq: number): string {
  return last && /^[1-9]\d{0,8}$/.test(last.version) ? String(Number(last.version) + 1) : String(seq);
}

export type PublishInput = { kind: RegistryKind; name: string; agent: string; version?: string; body: unknown; actor: AuditActor };

/**
 * The body as publishing would store it, or the refusal naming the field: the kind's schema, a non-empty
 * name, no moving name in the pin. Publishing and the registries page's preview (server/policy) share it.
 */
export function validRegistryEntry(input: Omit<PublishInput, "actor">): unknown {
  const parsed = REGISTRY_BODIES[input.kind].safeParse(input.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = ["body", ...issue.path].join(".");
    throw new DomainError("BAD_REQUEST", `${field}: ${issue.message}`, field);
  }
  if (!input.name.trim()) throw new DomainError("BAD_REQUEST", "name: must not be empty", "name");
  const moving = registryPinProblem(input);
  if (moving) throw new DomainError("BAD_REQUEST", `${moving.field}: ${moving.message}`, moving.field);
  return parsed.data;
}

/** Publishes a new version of a registry record. The caller has checked `policy:write` for the agent. */
export async function publishRegistryEntry(database: Database, input: PublishInput): Promise<RegistryRecord> {
  const parsed = { data: validRegistryEntry(input) };
  const body = canonicalJson(parsed.data);
  const { kind, name, agent } = input;
  return database.transaction(
    async (tx) => {
      const last = await tx.registryEntry.findFirst({ where: { kind, name, agent }, orderBy: { seq: "desc" } });
      const seq = (last?.seq ?? 0) + 1;
      const version = input.version ?? nextVersionLabel(last, seq);
      const taken = await tx.registryEntry.findUnique({ where: { kind_name_agent_version: { kind, name, agent, version } } });
      if (taken) throw new DomainError("CONFLICT", `version: ${kind} ${name} already has a version "${version}" (published versions are immutable)`, "version");
      const row = await tx.registryEntry.create({
        data: { kind, name, agent, seq, version, digest: digestOf(parsed.data), body, createdById: input.actor.id, createdAt: new Date() },
      });
      await appendAudit(tx, {
        actor: input.actor,
        action: `registry.${kind}.publish`,
        target: { type: "registry", id: `${kind}/${agent}/${name}` },
        before: last && { version: last.version, digest: last.digest },
        after: { version, digest: row.digest },
      });
      return toRecord(row);
    },
    { locks: [AUDIT_LOCK, `registry:${kind}:${agent}:${name}`] },
  );
}

/** Every published version, newest first, optionally of one kind / agent / name. */
export async function listRegistry(db: Db | Tx, filter: { kind?: RegistryKind; agent?: string; name?: string } = {}): Promise<RegistryRecord[]> {
  const rows = await db.registryEntry.findMany({
    where: { kind: filter.kind, name: filter.name, ...(filter.agent ? { agent: { in: [filter.agent, ANY_AGENT] } } : {}) },
    orderBy: [{ kind: "asc" }, { name: "asc" }, { agent: "asc" }, { seq: "desc" }],
  });
  return rows.map(toRecord);
}

/** The current version of every record that applies to `agent` (its own over the instance-wide one). */
export async function currentEntries(db: Db | Tx, agent: string): Promise<RegistryRecord[]> {
  const all = await listRegistry(db, { agent });
  const current = new Map<string, RegistryRecord>();
  for (const r of all) {
    const key = `${r.kind}\u0000${r.name}`;
    const held = current.get(key);
    if (!held || (held.agent === ANY_AGENT && r.agent !== ANY_AGENT) || (held.agent === r.agent && r.seq > held.seq)) current.set(key, r);
  }
  return [...current.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

/** The promotion policy for an agent, tightened by its protected-case families. */
export function policyFrom(entries: readonly RegistryRecord[]): GatePolicy {
  const policyEntry = entries.filter((e) => e.kind === "promotion_policy").sort((a, b) => +b.createdAt - +a.createdAt)[0];
  const policy: GatePolicy = policyEntry ? withCheck4Floor(ZGatePolicy.parse(policyEntry.body)) : DEFAULT_GATE_POLICY;
  const tolerance = new Map(policy.protectedFamilies.map((f) => [f.family, f.maxRegressions]));
  for (const e of entries.filter((x) => x.kind === "protected_family")) {
    const max = (e.body as { maxRegressions: number }).maxRegressions;
    tolerance.set(e.name, Math.min(tolerance.get(e.name) ?? Infinity, max));
  }
  return { ...policy, protectedFamilies: [...tolerance].map(([family, maxRegressions]) => ({ family, maxRegressions })) };
}

export async function currentPolicy(db: Db | Tx, agent: string): Promise<GatePolicy> {
  return policyFrom(await currentEntries(db, agent));
}

/** Published versions for the registries page, each marked current or superseded for its agent. */
export async function listRegistryView(db: Db | Tx, filter: { kind?: RegistryKind; agent?: string; name?: string; currentOnly?: boolean }) {
  const all = await listRegistry(db, filter);
  const latest = new Map<string, number>();
  for (const r of all) {
    const key = `${r.kind}\u0000${r.name}\u0000${r.agent}`;
    latest.set(key, Math.max(latest.get(key) ?? 0, r.seq));
  }
  const rows = all.map((r) => ({ ...r, current: latest.get(`${r.kind}\u0000${r.name}\u0000${r.agent}`) === r.seq }));
  return filter.currentOnly ? rows.filter((r) => r.current) : rows;
}
