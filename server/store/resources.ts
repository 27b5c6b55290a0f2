// Resources: named resources (LLM, ProxyLLM, PromptTemplate) under an id with a version that goes up on
// every update. Every version is kept with its content digest (sha-256 of the RFC 8785 canonical JSON),
// so a receipt can pin exactly what a rollout ran with. "Latest" is the most recently written id.
import { canonicalJson, sha256Hex, type Digest } from "@/server/digest";
import { all, one, run, type Program, type SqlDialect } from "@/server/db/sql/program";
import { nextPos } from "./ids";
import { checkPage, contains, exact, orderBy, whereClause, type Cond } from "./query";
import { pageOf, type PageParams } from "./queries";
import type { NamedResources, PaginatedResult, ResourcesUpdate, ResourcesVersion } from "./types";

/** The HTTP header that names a served resources version's digest ("sha256:<hex>"), wherever one is served. */
export const DIGEST_HEADER = "x-lightgate-digest";

export function resourcesDigest(resources: NamedResources): string {
  return sha256Hex(canonicalJson(resources));
}

type ResourcesRow = { resources_id: string; create_time: number; update_time: number; version: number; resources: string };
const COLUMNS = "resources_id, create_time, update_time, version, resources";

const fromRow = (r: ResourcesRow): ResourcesUpdate => ({
  resources_id: r.resources_id,
  create_time: Number(r.create_time),
  update_time: Number(r.update_time),
  version: Number(r.version),
  resources: JSON.parse(r.resources) as NamedResources,
});

/**
 * add_resources (new id, version 1) and update_resources (upsert: version + 1); the result becomes latest.
 * One atomic upsert rather than read-then-write: two first writes of a new id at once (a SELECT … FOR UPDATE
 * locks no row that does not exist yet) would otherwise both insert, and one would fail on the key.
 */
export function* putResources(resourcesId: string, resources: NamedResources, now: number): Program<ResourcesUpdate> {
  const text = JSON.stringify(resources);
  const digest = resourcesDigest(resources);
  const row = yield* one<{ create_time: number; version: number }>(
    `INSERT INTO store_resources (resources_id, create_time, update_time, version, digest, resources, latest_pos, created_pos)
     VALUES (?, ?, ?, 1, ?, ?, ?, ?)
     ON CONFLICT (resources_id) DO UPDATE SET update_time = excluded.update_time, version = store_resources.version + 1,
       digest = excluded.digest, resources = excluded.resources, latest_pos = excluded.latest_pos
     RETURNING create_time, version`,
    [resourcesId, now, now, digest, text, nextPos(), nextPos()],
  );
  const version = Number(row!.version);
  yield* run("INSERT INTO store_resources_versions (resources_id, version, digest, resources, created_at) VALUES (?, ?, ?, ?, ?)", [resourcesId, version, digest, text, now]);
  return { resources_id: resourcesId, create_time: Number(row!.create_time), update_time: now, version, resources };
}

/** Ids of the gate's pins: exact versions copied under immutable ids, written only by the gate, never "latest". */
export const GATE_PIN_PREFIX = "lg-pin-";

/**
 * Writes `resources` as version 1 of `resourcesId` unless that id exists, without making it latest (latest_pos 0,
 * which `latestResources` passes over): the gate's pins must not become what runners fetch as "latest".
 * Returns the stored version 1 either way; the caller compares digests.
 */
export function* pinResources(resourcesId: string, resources: NamedResources, now: number): Program<{ version: number; digest: Digest }> {
  const text = JSON.stringify(resources);
  const digest = resourcesDigest(resources);
  const inserted = yield* one<{ version: number }>(
    `INSERT INTO store_resources (resources_id, create_time, update_time, version, digest, resources, latest_pos, created_pos)
     VALUES (?, ?, ?, 1, ?, ?, 0, ?) ON CONFLICT (resources_id) DO NOTHING RETURNING version`,
    [resourcesId, now, now, digest, text, nextPos()],
  );
  if (inserted) yield* run("INSERT INTO store_resources_versions (resources_id, version, digest, resources, created_at) VALUES (?, ?, ?, ?, ?)", [resourcesId, 1, digest, text, now]);
  const stored = yield* one<{ digest: string }>("SELECT digest FROM store_resources_versions WHERE resources_id = ? AND version = 1", [resourcesId]);
  return { version: 1, digest: pinnedDigest(stored?.digest ?? "") };
}

export function* getResources(resourcesId: string): Program<ResourcesUpdate | null> {
  const row = yield* one<ResourcesRow>(`SELECT ${COLUMNS} FROM store_resources WHERE resources_id = ?`, [resourcesId]);
  return row ? fromRow(row) : null;
}

/** The latest version of an id with its digest (the HTTP answer names it in a header). */
export function* getResourcesWithDigest(resourcesId: string): Program<{ update: ResourcesUpdate; digest: Digest } | null> {
  const row = yield* one<ResourcesRow & { digest: string }>(`SELECT ${COLUMNS}, digest FROM store_resources WHERE resources_id = ?`, [resourcesId]);
  return row ? { update: fromRow(row), digest: pinnedDigest(row.digest) } : null;
}

/** Which stored version a caller asks for: by number, by digest, or both (then the two must agree). */
export type VersionSelector = { version?: number; digest?: Digest };

/**
 * Exactly one stored version in the wire's shape (`update_time` is when that version was written), or why
 * there is none — never another version in its place. By digest alone, the first version with those bytes.
 */
export function* exactResources(resourcesId: string, sel: VersionSelector): Program<{ update: ResourcesUpdate; digest: Digest } | { missing: string }> {
  const head = yield* one<{ create_time: number }>("SELECT create_time FROM store_resources WHERE resources_id = ?", [resourcesId]);
  if (!head) return { missing: `no resources id ${resourcesId}` };
  const cols = "resources_id, version, digest, created_at, resources FROM store_resources_versions WHERE resources_id = ?";
  // The column holds bare hex (older rows) or "sha256:<hex>"; both spellings name the same bytes.
  const hex = sel.digest?.slice("sha256:".length);
  const r =
    sel.version !== undefined
      ? yield* one<VersionRow>(`SELECT ${cols} AND version = ?`, [resourcesId, sel.version])
      : yield* one<VersionRow>(`SELECT ${cols} AND digest IN (?, ?) ORDER BY version LIMIT 1`, [resourcesId, hex, sel.digest]);
  if (!r) return { missing: sel.version !== undefined ? `${resourcesId} has no version ${sel.version}` : `${resourcesId} has no version with digest ${sel.digest}` };
  const v = versionFromRow(r);
  if (sel.digest !== undefined && v.digest !== sel.digest) return { missing: `version ${v.version} of ${resourcesId} has digest ${v.digest}, not ${sel.digest}` };
  return { update: { resources_id: resourcesId, create_time: Number(head.create_time), update_time: v.created_at, version: v.version, resources: v.resources }, digest: pinnedDigest(v.digest) };
}

export function* latestResources(): Program<ResourcesUpdate | null> {
  const row = yield* one<ResourcesRow>(`SELECT ${COLUMNS} FROM store_resources WHERE latest_pos > 0 ORDER BY latest_pos DESC LIMIT 1`);
  return row ? fromRow(row) : null;
}

export type ResourcesQuery = PageParams & { resources_id?: string | null; resources_id_contains?: string | null };

const SORT: Record<string, string> = { resources_id: "resources_id", create_time: "create_time", update_time: "update_time", version: "version", resources: "resources" };

export function* queryResources(d: SqlDialect, q: ResourcesQuery): Program<PaginatedResult<ResourcesUpdate>> {
  const { limit, offset } = checkPage(q);
  const pool: Cond[] = [];
  if (q.resources_id !== undefined && q.resources_id !== null) pool.push(exact("resources_id", q.resources_id));
  if (q.resources_id_contains !== undefined && q.resources_id_contains !== null) pool.push(contains(d, "resources_id", q.resources_id_contains));
  const order = orderBy(q.sort_by, q.sort_order ?? "asc", SORT, "created_pos", "created_pos");
  const { rows, total } = yield* pageOf<ResourcesRow>("store_resources", COLUMNS, whereClause([], pool, "and"), order, limit, offset);
  return { items: rows.map(fromRow), limit, offset, total };
}

type VersionRow = { resources_id: string; version: number; digest: string; created_at: number; resources: string };

/**
 * A stored resources digest as receipts, candidates and runs name it: the column keeps the bare hex the
 * store has always written, and this is the one place it becomes the canonical "sha256:<hex>" (values
 * already spelled that way pass through). Every read of the column goes through it.
 */
export function pinnedDigest(stored: string): Digest {
  return (stored.startsWith("sha256:") ? stored : `sha256:${stored}`) as Digest;
}

function versionFromRow(r: VersionRow): ResourcesVersion {
  return { resources_id: r.resources_id, version: Number(r.version), digest: pinnedDigest(r.digest), created_at: Number(r.created_at), resources: JSON.parse(r.resources) as NamedResources };
}

/** Every stored version of one resources id, newest first (Lightgate's extension for pinning and diffs). */
export function* resourcesVersions(resourcesId: string): Program<ResourcesVersion[]> {
  const rows = yield* all<VersionRow>(
    "SELECT resources_id, version, digest, created_at, resources FROM store_resources_versions WHERE resources_id = ? ORDER BY version DESC",
    [resourcesId],
  );
  return rows.map(versionFromRow);
}

/** One exact version, or null. */
export function* resourcesVersion(resourcesId: string, version: number): Program<ResourcesVersion | null> {
  const r = yield* one<VersionRow>(
    "SELECT resources_id, version, digest, created_at, resources FROM store_resources_versions WHERE resources_id = ? AND version = ?",
    [resourcesId, version],
  );
  return r ? versionFromRow(r) : null;
}
