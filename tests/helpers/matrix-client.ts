// The matrix's callers over HTTP, behaving like well-behaved clients: people as a browser with their session
// cookie (JSON, same-origin Origin and Sec-Fetch-Site), services with their API key, nobody with neither.
import superjson from "superjson";
import { createApiKey } from "@/server/auth/api-keys";
import { publicOrigin } from "@/server/auth/origin";
import type { Database } from "@/server/db/client";
import { SERVICE_ROLES, type RoleGrant, type ServiceRole } from "@/lib/auth/scopes";
import { grantRole, revokeRole } from "@/server/auth/users";
import { makePerson, signIn, SYSTEM } from "./auth";
import { outcomeOf, type Identity, type Outcome, type Procedure } from "./permission-matrix";
import type { Caller, RouteCell } from "./route-matrix";

export function browserHeaders(cookie?: string): Record<string, string> {
  const { origin } = publicOrigin();
  return { "content-type": "application/json", origin, "sec-fetch-site": "same-origin", ...(cookie ? { cookie } : {}) };
}

export function keyHeaders(token: string): Record<string, string> {
  return { "content-type": "application/json", authorization: `Bearer ${token}` };
}

/** A real API key for each API-key role. */
export async function serviceKeys(database: Database): Promise<Map<ServiceRole, string>> {
  const keys = new Map<ServiceRole, string>();
  for (const role of SERVICE_ROLES) keys.set(role, (await createApiKey(database.db, { name: `matrix ${role}`, role })).token);
  return keys;
}

/**
 * One person signed in through better-auth, whose roles `become` replaces through the same domain calls an
 * admin's clicks make. Roles are read on every request, so one session serves every human identity
 * (a password hash costs ~0.2 s of CPU; one per identity would cost more than the whole matrix).
 */
export async function matrixPerson(database: Database) {
  // The instance keeps one active admin: a second one lets the matrix person give up the role.
  await makePerson(database, [{ role: "admin", agent: null }], "Matrix spare admin");
  const person = await makePerson(database, [], "Matrix person");
  const headers = browserHeaders(await signIn(database, person.email, person.password));
  let held: RoleGrant[] = [];
  const same = (a: RoleGrant, b: RoleGrant) => a.role === b.role && a.agent === b.agent;
  return {
    email: person.email,
    headers,
    async become(grants: RoleGrant[]) {
      for (const g of held.filter((h) => !grants.some((x) => same(x, h)))) await revokeRole(database, SYSTEM, person.id, g);
      for (const g of grants.filter((x) => !held.some((h) => same(x, h)))) await grantRole(database, SYSTEM, person.id, g);
      held = grants;
    },
  };
}

/** The headers `identity` calls with: the person's session, its role's API key, or nothing but a browser's. */
export function headersOf(identity: Identity, person: { headers: Record<string, string> }, keys: Map<ServiceRole, string>): Record<string, string> {
  if (identity.kind === "nobody") return browserHeaders();
  if (identity.kind === "user") return person.headers;
  return keyHeaders(keys.get(identity.grants[0]!.role as ServiceRole)!);
}

/** Calls one procedure as the browser client does (GET for queries, POST for mutations; superjson); how it ended. */
export async function trpcOverHttp(baseUrl: string, procedure: Procedure, input: unknown, headers: Record<string, string>): Promise<Outcome> {
  const serialized = JSON.stringify(superjson.serialize(input));
  const url = new URL(`/api/trpc/${procedure.path}`, baseUrl);
  const init: RequestInit = { headers };
  if (procedure.type === "query") {
    if (input !== undefined) url.searchParams.set("input", serialized);
  } else Object.assign(init, { method: "POST", body: serialized });
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.ok) return "allowed";
  let error: { message?: string; data?: { code?: string } } = {};
  try {
    error = (JSON.parse(text) as { error: { json: typeof error } }).error.json;
  } catch {
    return `error: ${res.status} ${text.slice(0, 200)}`;
  }
  return outcomeOf(error.data?.code ?? String(res.status), error.message ?? "");
}

/** Runs `tasks` with at most `limit` in flight. */
export async function inParallel<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

export type RouteOutcome = "allowed" | "unauthorized" | "forbidden" | "not-served" | "unrouted" | `error: ${string}`;

/** Sends one route cell; how it ended, as the route matrix counts it. */
export async function routeOverHttp(baseUrl: string, cell: RouteCell, headers: Record<string, string>): Promise<RouteOutcome> {
  const res = await fetch(new URL(cell.path, baseUrl), { method: cell.method, headers, body: cell.body, redirect: "manual" });
  const text = await res.text();
  if (res.status >= 500 && res.status !== 501) return `error: ${res.status} ${text.slice(0, 200)}`;
  if (res.status === 401) return "unauthorized";
  if (res.status === 403) return "forbidden";
  if (res.status === 404 && cell.family === "auth") return "not-served";
  if (res.status === 404 && cell.family === "store" && text === '{"detail":"Not Found"}') return "unrouted";
  return "allowed";
}

/** A well-formed API key that no one was given. */
export const UNKNOWN_KEY = `lgk_${"0".repeat(16)}_${"A".repeat(43)}`;

export function callerHeaders(caller: Caller, person: { headers: Record<string, string> }, keys: Map<ServiceRole, string>): Record<string, string> {
  return caller.kind === "invalid-key" ? keyHeaders(UNKNOWN_KEY) : headersOf(caller, person, keys);
}

export function routeMismatch(cell: RouteCell, got: RouteOutcome): string | null {
  return got === cell.expected ? null : `${cell.method} ${cell.path} as ${cell.caller.label}: expected ${cell.expected}, got ${got}`;
}
