// Reads only the dashboard needs, each one page at a time: a compact outline of a rollout's spans (for the
// tree and waterfall, without the span bodies), one span in full, a resources id's version history and a
// masked key diff between two of its versions, and runners counted by status.
import { diffJson, type JsonDiff } from "@/lib/json/diff";
import type { OutlineSpan } from "@/lib/spans/tree";
import { all, one, type Program, type SqlDialect } from "@/server/db/sql/program";
import { DomainError } from "@/server/errors";
import { maskSecrets } from "@/lib/json/secrets";
import { checkPage, contains, exact, limitOffset, orderBy, whereClause, type Cond } from "./query";
import { pageOf, type PageParams } from "./queries";
import { pinnedDigest, resourcesVersion } from "./resources";
import { spanSelection } from "./spans";
import { WORKER_STATUSES, type NamedResources, type PaginatedResult, type ResourcesVersion, type Span, type WorkerStatus } from "./types";

/** A span without its body: what the tree and waterfall need (the shape lib/spans/tree.ts builds from). */
export type SpanOutline = OutlineSpan;

type OutlineRow = Omit<SpanOutline, "sequence_id" | "start_time" | "end_time"> & { sequence_id: number | string; start_time: number | string | null; end_time: number | string | null };
const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The spans of a rollout (or one attempt, or "latest") without their bodies, in time order. */
export function* spanOutline(d: SqlDialect, q: { rollout_id: string; attempt_id?: string | null; limit: number; offset: number }): Program<PaginatedResult<SpanOutline>> {
  const { limit, offset } = checkPage(q);
  const sel = yield* spanSelection(d, { rollout_id: q.rollout_id, attempt_id: q.attempt_id, sort_by: "start_time", sort_order: "asc" });
  if (!sel) return { items: [], limit, offset, total: 0 };
  const lo = limitOffset(limit, offset);
  const rows = yield* all<OutlineRow>(
    `SELECT attempt_id, span_id, parent_id, sequence_id, name, start_time, end_time, status_code FROM store_spans${sel.where.sql}${sel.order}${lo.sql}`,
    [...sel.where.params, ...lo.params],
  );
  const total = offset === 0 && rows.length < limit ? rows.length : Number((yield* one<{ n: number }>(`SELECT COUNT(*) AS n FROM store_spans${sel.where.sql}`, sel.where.params))!.n);
  const items = rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id), start_time: num(r.start_time), end_time: num(r.end_time) }));
  return { items, limit, offset, total };
}

/** One span as it was received, or null. */
export function* getSpan(rolloutId: string, attemptId: string, spanId: string): Program<Span | null> {
  const row = yield* one<{ body: string }>("SELECT body FROM store_spans WHERE rollout_id = ? AND attempt_id = ? AND span_id = ?", [rolloutId, attemptId, spanId]);
  return row ? (JSON.parse(row.body) as Span) : null;
}

const namesOf = (text: string) => Object.keys(JSON.parse(text) as NamedResources).sort();

export type ResourcesSummary = { resources_id: string; version: number; create_time: number; update_time: number; digest: string; names: string[] };

const RESOURCES_SORT: Record<string, string> = { resources_id: "resources_id", create_time: "create_time", update_time: "update_time", version: "version" };

/** Resources ids with their latest version's digest and resource names; the bodies (and their keys) stay here. */
export function* resourcesSummaries(d: SqlDialect, q: PageParams & { resources_id_contains?: string | null }): Program<PaginatedResult<ResourcesSummary>> {
  const { limit, offset } = checkPage(q);
  const pool: Cond[] = q.resources_id_contains ? [contains(d, "resources_id", q.resources_id_contains)] : [];
  const order = orderBy(q.sort_by ?? "update_time", q.sort_order ?? "desc", RESOURCES_SORT, "latest_pos", "created_pos");
  const { rows, total } = yield* pageOf<{ resources_id: string; version: number; create_time: number; update_time: number; digest: string; resources: string }>(
    "store_resources",
    "resources_id, version, create_time, update_time, digest, resources",
    whereClause([], pool),
    order,
    limit,
    offset,
  );
  const items = rows.map((r) => ({
    resources_id: r.resources_id,
    version: Number(r.version),
    create_time: Number(r.create_time),
    update_time: Number(r.update_time),
    digest: pinnedDigest(r.digest),
    names: namesOf(r.resources),
  }));
  return { items, limit, offset, total };
}

/** One version with its secret-like values masked (for viewing in the browser), or null. */
export function* maskedResourcesVersion(resourcesId: string, version: number): Program<ResourcesVersion | null> {
  const v = yield* resourcesVersion(resourcesId, version);
  return v ? { ...v, resources: maskSecrets(v.resources) as NamedResources } : null;
}

export type ResourcesVersionSummary = { resources_id: string; version: number; digest: string; created_at: number; names: string[] };

/** One page of a resources id's versions, newest first, with the names of its resources (not their bodies). */
export function* resourcesHistory(resourcesId: string, q: PageParams): Program<PaginatedResult<ResourcesVersionSummary>> {
  const { limit, offset } = checkPage(q);
  const order = ` ORDER BY version ${q.sort_order === "asc" ? "ASC" : "DESC"}`;
  const { rows, total } = yield* pageOf<{ resources_id: string; version: number; digest: string; created_at: number; resources: string }>(
    "store_resources_versions",
    "resources_id, version, digest, created_at, resources",
    whereClause([exact("resources_id", resourcesId)], []),
    order,
    limit,
    offset,
  );
  const items = rows.map((r) => ({
    resources_id: r.resources_id,
    version: Number(r.version),
    digest: pinnedDigest(r.digest),
    created_at: Number(r.created_at),
    names: namesOf(r.resources),
  }));
  return { items, limit, offset, total };
}

export type ResourcesDiff = JsonDiff & {
  resources_id: string;
  from: { version: number; digest: string; created_at: number };
  to: { version: number; digest: string; created_at: number };
};

/** What changed between two versions of a resources id, key by key, with secret values masked. */
export function* diffResourcesVersions(resourcesId: string, fromVersion: number, toVersion: number): Program<ResourcesDiff> {
  const a = yield* resourcesVersion(resourcesId, fromVersion);
  const b = yield* resourcesVersion(resourcesId, toVersion);
  if (!a || !b) throw new DomainError("NOT_FOUND", `resources ${resourcesId} has no version ${!a ? fromVersion : toVersion}`, !a ? "from_version" : "to_version");
  const meta = (v: typeof a) => ({ version: v.version, digest: v.digest, created_at: v.created_at });
  return { resources_id: resourcesId, from: meta(a), to: meta(b), ...diffJson(a.resources, b.resources) };
}

/** Runners by status (the runners page's summary, independent of its current page). */
export function* workerCounts(): Program<Record<WorkerStatus, number>> {
  const rows = yield* all<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM store_workers GROUP BY status");
  return Object.fromEntries(WORKER_STATUSES.map((s) => [s, Number(rows.find((r) => r.status === s)?.n ?? 0)])) as Record<WorkerStatus, number>;
}
