// Refusals at the edge — cross-site, content type, method, a bad or missing credential, a write the caller's
// scope does not allow — recorded in the audit log without letting a flood of them grow it without bound or
// hold the audit lock. Each (caller, method, route, status, reason) has a coalescing window (60 s): the first refusal
// is written at once (`request.refused`, with its message), repeats within the window are only counted, and
// when the window closes their count is written in one row (`request.refused.repeated`, count, first and
// last time). So a burst costs two rows per window however long it is, and the counts add up to every
// refusal. At most MAX_OPEN_WINDOWS keys are open at once; refusals beyond them (a flood from many callers)
// are counted into one overflow window per route and status, written the same way. A write that fails is
// logged and never turns the refusal into anything else.
import type { Database } from "@/server/db/client";
import { appendAudit, AUDIT_LOCK, type AuditActor } from "./audit-log";

export const REFUSAL_WINDOW_MS = 60_000;
export const MAX_OPEN_WINDOWS = 1_000;

/** Who was refused: the identified actor, else what they presented and from where. */
export type RefusalCaller = { actor: AuditActor | null; credential: "api-key" | "session" | "password" | "none"; address: string | null };

export type EdgeRefusal = {
  caller: RefusalCaller;
  /** the route as declared (a procedure, a route pattern), never a raw path: keys stay few */
  route: string;
  method: string;
  status: number;
  /** a short code: cross_site, content_type, method_not_allowed, unauthorized, forbidden, bad_request, … */
  reason: string;
  /** the answer's sentence, recorded with the first refusal of a window */
  message: string;
  path?: string;
};

type Window = { first: EdgeRefusal; firstAt: Date; repeats: number; lastAt: Date; overflow: boolean; timer: NodeJS.Timeout | null };

const ANONYMOUS: AuditActor = { kind: "user", id: "anonymous", name: "Unauthenticated caller", grants: [] };
const bounded = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

function callerKey(c: RefusalCaller): string {
  return c.actor ? `${c.actor.kind}:${c.actor.id}` : `${c.credential}@${c.address ?? "?"}`;
}

export class RefusalLog {
  private readonly windows = new Map<string, Window>();
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly database: Database,
    private readonly opts: { windowMs: number; maxOpen: number } = { windowMs: REFUSAL_WINDOW_MS, maxOpen: MAX_OPEN_WINDOWS },
  ) {}

  /** Counts one refusal; resolves once its row is written when it opened a window (never rejects). */
  record(refusal: EdgeRefusal): Promise<void> {
    const now = new Date();
    let key = `${callerKey(refusal.caller)}|${refusal.method}|${refusal.route}|${refusal.status}|${refusal.reason}`;
    let overflow = false;
    if (!this.windows.has(key) && this.windows.size >= this.opts.maxOpen) {
      key = `overflow|${refusal.route}|${refusal.status}`;
      overflow = true;
    }
    const open = this.windows.get(key);
    if (open) {
      open.repeats++;
      open.lastAt = now;
      return Promise.resolve();
    }
    const first = { ...refusal, message: bounded(refusal.message, 500), path: refusal.path === undefined ? undefined : bounded(refusal.path, 200) };
    // An overflow window counts refusals of many callers: it writes no first row naming one of them, and
    // counts its first refusal with the rest.
    const window: Window = { first, firstAt: now, repeats: overflow ? 1 : 0, lastAt: now, overflow, timer: null };
    window.timer = setTimeout(() => void this.close(key), this.opts.windowMs);
    window.timer.unref();
    this.windows.set(key, window);
    return overflow ? Promise.resolve() : this.write(first, "request.refused", { ...details(first), count: 1, at: now.toISOString() });
  }

  /** Closes every open window now (tests; a server that stops) and waits for all rows. */
  async flush(): Promise<void> {
    await Promise.all([...this.windows.keys()].map((key) => this.close(key)));
    await this.settled();
  }

  /** Waits for the rows being written. */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  private close(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (!window) return Promise.resolve();
    this.windows.delete(key);
    if (window.timer) clearTimeout(window.timer);
    if (window.repeats === 0) return Promise.resolve();
    const { first } = window;
    const summary = window.overflow
      ? { route: first.route, status: first.status, reason: "many callers", count: window.repeats }
      : { ...details(first), count: window.repeats };
    const refusal = window.overflow ? { ...first, caller: { actor: null, credential: "none" as const, address: null } } : first;
    return this.write(refusal, "request.refused.repeated", { ...summary, firstAt: window.firstAt.toISOString(), lastAt: window.lastAt.toISOString() });
  }

  private write(refusal: EdgeRefusal, action: string, after: Record<string, unknown>): Promise<void> {
    const actor = refusal.caller.actor;
    const who: AuditActor = actor ? { kind: actor.kind, id: actor.id, name: actor.name, grants: actor.grants } : ANONYMOUS;
    const p = Promise.resolve()
      .then(() => this.database.transaction((tx) => appendAudit(tx, { actor: who, action, target: { type: "route", id: refusal.route }, after }), { locks: [AUDIT_LOCK] }))
      .then(
        () => undefined,
        (e: unknown) => console.error(`audit: could not record a refused ${refusal.method} ${refusal.route}:`, (e as Error)?.message ?? e),
      )
      .finally(() => this.writes.delete(p));
    this.writes.add(p);
    return p;
  }
}

function details(r: EdgeRefusal) {
  return {
    method: bounded(r.method, 20),
    status: r.status,
    reason: r.reason,
    message: bounded(r.message, 500),
    path: r.path === undefined ? null : bounded(r.path, 200),
    credential: r.caller.credential,
    address: r.caller.address,
  };
}

// On globalThis: Next.js bundles its own copy of this module, and the server (scripts/serve.ts) must flush the
// same windows the route handlers opened.
const LOGS = Symbol.for("lightgate.refusal-logs");
const RECORDED = Symbol.for("lightgate.refusals-recorded");
const shared = globalThis as { [LOGS]?: WeakMap<Database, RefusalLog>; [RECORDED]?: WeakSet<object> };
const logs = (shared[LOGS] ??= new WeakMap<Database, RefusalLog>());

/** The refusal log of a database (one per open Database, like its auth instance). */
export function refusalLog(database: Database): RefusalLog {
  let log = logs.get(database);
  if (!log) {
    log = new RefusalLog(database);
    logs.set(database, log);
  }
  return log;
}

// Refusals a decision path already recorded in full (server/approvals/refusal-audit.ts): the edge must not
// count them a second time.
const alreadyRecorded = (shared[RECORDED] ??= new WeakSet<object>());

export function markRefusalRecorded<E extends object>(error: E): E {
  alreadyRecorded.add(error);
  return error;
}

export function isRefusalRecorded(error: unknown): boolean {
  return typeof error === "object" && error !== null && alreadyRecorded.has(error);
}
