// API keys for service identities (runner, algorithm, release_bot). A key is `lgk_<16 hex id>_<43 base64url>`
// (32 random bytes); only its sha-256 is stored, compared in constant time. The `lgk_<id>` prefix is what
// lists show. Revoked keys stop working at once in this process and within KEY_CACHE_MS in others.
import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { SERVICE_ROLES, type ServiceRole } from "@/lib/auth/scopes";
import type { Db } from "@/server/db/client";
import { SERVE_PHASES, type ServePhase } from "@/lib/store/phases";
import { makeActor, type Actor } from "./actor";

const TOKEN = /^lgk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const KEY_CACHE_MS = 5_000;
const LAST_USED_EVERY_MS = 60_000;

/** agents / phases: what the key is bound to serve; null = unbound (every agent, every phase). */
export type ApiKeyInfo = {
  id: string;
  name: string;
  role: ServiceRole;
  agents: string[] | null;
  phases: ServePhase[] | null;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};
export type ApiKeyBinding = { agents?: readonly string[] | null; phases?: readonly string[] | null };

/** Agent names as rollouts carry them (metadata "lightgate.agent": 1–64 characters). */
const MAX_BOUND = 100;

/** The binding as stored: validated, deduplicated, sorted; an absent or null list stays unbound. */
export function normalizeBinding(b: ApiKeyBinding): { agents: string[] | null; phases: ServePhase[] | null } {
  let agents: string[] | null = null;
  let phases: ServePhase[] | null = null;
  if (b.agents != null) {
    agents = [...new Set(b.agents.map((a) => a.trim()))].sort();
    if (agents.length === 0 || agents.length > MAX_BOUND) throw new Error(`agents: bind a key to 1–${MAX_BOUND} agents, or to none (unbound)`);
    const bad = agents.find((a) => a.length === 0 || a.length > 64);
    if (bad !== undefined) throw new Error(`agents: "${bad}" is not an agent name (1–64 characters)`);
  }
  if (b.phases != null) {
    const unknown = b.phases.find((p) => !(SERVE_PHASES as readonly string[]).includes(p));
    if (unknown !== undefined) throw new Error(`phases: "${unknown}" is not one of ${SERVE_PHASES.join(", ")}`);
    phases = SERVE_PHASES.filter((p) => b.phases!.includes(p));
    if (phases.length === 0) throw new Error("phases: bind a key to at least one phase, or to none (unbound)");
  }
  return { agents, phases };
}

function parseList(text: string | null): string[] | null {
  if (text === null) return null;
  const v: unknown = JSON.parse(text);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : null;
}

// One-shot hashing: a Hash object per call cost ~2 µs on every store request (the key cache's lookup).
const sha256 = (s: string) => hash("sha256", s, "buffer");
const sha256Hex = (s: string) => hash("sha256", s, "hex");

/** Creates a key; the returned `token` is shown once and never stored. */
export async function createApiKey(db: Db, opts: { name: string; role: ServiceRole; createdBy?: string } & ApiKeyBinding): Promise<{ token: string; key: ApiKeyInfo }> {
  if (!SERVICE_ROLES.includes(opts.role)) throw new Error(`role must be one of ${SERVICE_ROLES.join(", ")}`);
  const name = opts.name.trim();
  if (!name || name.length > 100) throw new Error("name must be 1–100 characters");
  const { agents, phases } = normalizeBinding(opts);
  const idHex = randomBytes(8).toString("hex");
  const token = `lgk_${idHex}_${randomBytes(32).toString("base64url")}`;
  const row = await db.apiKey.create({
    data: {
      id: `ak-${idHex}`,
      name,
      role: opts.role,
      agents: agents && JSON.stringify(agents),
      phases: phases && JSON.stringify(phases),
      prefix: `lgk_${idHex}`,
      secretHash: sha256(token).toString("hex"),
      createdBy: opts.createdBy ?? null,
    },
  });
  return { token, key: info(row) };
}

type KeyRow = { id: string; name: string; role: string; agents: string | null; phases: string | null; prefix: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null };

function info(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    role: row.role as ServiceRole,
    agents: parseList(row.agents),
    phases: parseList(row.phases) as ServePhase[] | null,
    prefix: row.prefix,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

/** A key's actor: a key bound to agents holds its role for each of them only (per-agent grants). */
function actorOf(row: KeyRow): Actor {
  const k = info(row);
  const grants = k.agents ? k.agents.map((agent) => ({ role: k.role, agent })) : [{ role: k.role, agent: null }];
  return makeActor("service", k.id, k.name, grants, { phases: k.phases });
}

export async function listApiKeys(db: Db): Promise<ApiKeyInfo[]> {
  return (await db.apiKey.findMany({ orderBy: { createdAt: "desc" } })).map(info);
}

export async function revokeApiKey(db: Db, id: string): Promise<boolean> {
  const res = await db.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  cache.clear();
  return res.count > 0;
}

type Cached = { actor: Actor | null; until: number };
const cache = new Map<string, Cached>();
const lastUsedWritten = new Map<string, number>();

/**
 * The service actor behind a bearer token, or null (unknown, malformed or revoked). Verified results are
 * cached for a few seconds so a hot runner does not cost a database read per span.
 */
/**
 * The API key a request presents (`Authorization: Bearer <key>` or `X-API-Key: <key>`): null when it
 * presents none, "" when the Authorization header is not a bearer token (refused, never anonymous).
 */
export function apiKeyOf(headers: { get(name: string): string | null }): string | null {
  const auth = headers.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : "";
  }
  const key = headers.get("x-api-key");
  return key === null ? null : key.trim();
}

/** What the cache knows of a token right now, without the database: its actor, null (refused) or undefined (unknown). */
export function cachedApiKeyActor(token: string): Actor | null | undefined {
  if (!TOKEN.test(token)) return null;
  const hit = cache.get(sha256Hex(token));
  return hit && hit.until > Date.now() ? hit.actor : undefined;
}

export async function authenticateApiKey(db: Db, token: string): Promise<Actor | null> {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const now = Date.now();
  const cacheKey = sha256Hex(token);
  const hit = cache.get(cacheKey);
  if (hit && hit.until > now) return hit.actor;
  const digest = Buffer.from(cacheKey, "hex");
  const row = await db.apiKey.findUnique({ where: { id: `ak-${m[1]}` } });
  let actor: Actor | null = null;
  if (row && !row.revokedAt && timingSafeEqual(Buffer.from(row.secretHash, "hex"), digest)) {
    actor = actorOf(row);
    if (now - (lastUsedWritten.get(row.id) ?? 0) > LAST_USED_EVERY_MS) {
      lastUsedWritten.set(row.id, now);
      // Best effort and off the request path: a lost "last used" stamp is not worth failing a request.
      void db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(cacheKey, { actor, until: now + KEY_CACHE_MS });
  return actor;
}
