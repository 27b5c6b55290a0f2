// The one table of request-body limits, per route family, read by every path a request can take: the
// production server's pre-check and its store fast path (server/process/server-listener.ts, node-body.ts), the
// Next.js route handlers (web-body.ts) and next.config.ts (pages). A body over its limit is refused with
// 413 naming the limit before it is buffered. No imports: next.config.ts loads this file as it is.

const KiB = 1024;
const MiB = 1024 * KiB;

/** How a family phrases its refusals (server/http/refusals.ts). */
export type RefusalFormat = "message" | "trpc" | "store" | "otlp";

export type BodyLimit = {
  family: "auth" | "trpc" | "store" | "otlp" | "gate" | "gate-datasets" | "gate-api" | "pages";
  /** Largest body accepted, in bytes; for OTLP also after gunzip. */
  bytes: number;
  /**
   * All of the family's bodies being buffered at once: the per-request limit bounds one request, this bounds
   * many (20 keys streaming 16 MiB each would otherwise hold 320 MiB). Above `bytes`, so a body of any
   * allowed size goes through when the server is not busy; beyond it, 503 with Retry-After (clients retry).
   */
  inFlight: number;
  /**
   * What one caller (an API key, a signed-in session, else a client address) may hold of `inFlight` at once,
   * so one key or address cannot starve the others. At least `bytes`: one body of any allowed size fits.
   */
  perCaller: number;
  /** Of `inFlight`, what only signed-in people may use (their approvals, rejections and rollbacks). */
  reservedForPeople: number;
  format: RefusalFormat;
  /** What the limit is for, as a refusal names it. */
  label: string;
};

type Entry = BodyLimit & { paths: readonly string[]; why: string };

export const BODY_LIMITS: readonly Entry[] = [
  {
    family: "auth",
    paths: ["/api/auth"],
    bytes: 8 * KiB,
    inFlight: 2 * MiB,
    perCaller: 256 * KiB,
    reservedForPeople: 0,
    format: "message",
    label: "sign-in requests (/api/auth)",
    why: "better-auth's sign-in/sign-out: an email (≤ 200), a password (≤ 128) and a callback URL — a few hundred bytes",
  },
  {
    family: "trpc",
    paths: ["/api/trpc"],
    bytes: 1 * MiB,
    inFlight: 16 * MiB,
    perCaller: 2 * MiB,
    reservedForPeople: 8 * MiB,
    format: "trpc",
    label: "dashboard calls (/api/trpc)",
    why: "a batch of dashboard calls; the largest inputs (a passkey's WebAuthn response, a registry record) are tens of KB",
  },
  {
    family: "store",
    paths: ["/v1/agl"],
    bytes: 16 * MiB,
    inFlight: 24 * MiB,
    perCaller: 16 * MiB,
    reservedForPeople: 0,
    format: "store",
    label: "the store API (/v1/agl)",
    why: "Agent Lightning clients send one span, one heartbeat or one batch of rollouts per request: kilobytes; 16 MiB is 10,000 rollouts with 1.6 KB inputs",
  },
  {
    family: "otlp",
    paths: ["/v1/traces", "/v1/metrics", "/v1/logs", "/v1/development/profiles"],
    bytes: 16 * MiB,
    inFlight: 24 * MiB,
    perCaller: 20 * MiB, // a body inflated from gzip is held beside its compressed form
    reservedForPeople: 0,
    format: "otlp",
    label: "OTLP exports (/v1/traces)",
    why: "the Python runner and the LLM proxy export one span per request, Lightgate's runner one attempt's spans: kilobytes; the limit also holds after gunzip (gzip bombs)",
  },
  // Before "gate-api": the first entry whose path prefixes the request's wins.
  {
    family: "gate-datasets",
    paths: ["/v1/gate/datasets"],
    bytes: 16 * MiB,
    inFlight: 32 * MiB,
    perCaller: 16 * MiB,
    reservedForPeople: 0,
    format: "message",
    label: "published gate datasets (/v1/gate/datasets)",
    why: "a held-out or canary set of up to 10,000 cases, each with its input and expected output: 16 MiB is 1.6 KB per case",
  },
  {
    family: "gate-api",
    paths: ["/v1/gate"],
    bytes: 1 * MiB,
    inFlight: 16 * MiB,
    perCaller: 2 * MiB,
    reservedForPeople: 0,
    format: "message",
    label: "the gate API (/v1/gate)",
    why: "a receipt declaration, a bind, a gate-run request or a verification: a few KB (a declaration's algorithm config the most)",
  },
  {
    family: "gate",
    paths: ["/v1/pointers", "/v1/receipts", "/api/health"],
    bytes: 0,
    inFlight: 0,
    perCaller: 0,
    reservedForPeople: 0,
    format: "message",
    label: "pointers and receipts (GET only)",
    why: "read-only routes: no body at all",
  },
];

/** Pages and everything else Next.js serves: no page reads a body (the app has no server actions). */
export const DEFAULT_BODY_LIMIT: BodyLimit = { family: "pages", bytes: 64 * KiB, inFlight: 4 * MiB, perCaller: 256 * KiB, reservedForPeople: 0, format: "message", label: "pages" };

const strip = ({ paths: _p, why: _w, ...limit }: Entry): BodyLimit => Object.freeze(limit);

// Built once: every request of a family shares its (frozen) limit, and GET/HEAD's no-body variant of it.
const LIMITS = BODY_LIMITS.map((entry) => ({ paths: entry.paths, limit: strip(entry) }));
const NO_BODY = new Map<BodyLimit, BodyLimit>([...LIMITS.map(({ limit }) => limit), DEFAULT_BODY_LIMIT].map((l) => [l, Object.freeze({ ...l, bytes: 0 })]));

export function bodyLimitOf(family: BodyLimit["family"]): BodyLimit {
  return LIMITS.find((e) => e.limit.family === family)?.limit ?? DEFAULT_BODY_LIMIT;
}

function lookup(pathname: string): BodyLimit {
  for (const { paths, limit } of LIMITS) for (const p of paths) if (pathname.startsWith(p) && (pathname.length === p.length || pathname[p.length] === "/")) return limit;
  return DEFAULT_BODY_LIMIT;
}

/**
 * The limit for a request. GET and HEAD take no body anywhere. The path is judged as sent and percent-
 * decoded, and the smaller limit wins, so an encoded path cannot pick a larger limit than its route's.
 */
export function bodyLimitFor(pathname: string, method: string): BodyLimit {
  let limit = lookup(pathname);
  if (pathname.includes("%")) {
    try {
      const decoded = lookup(decodeURIComponent(pathname));
      if (decoded.bytes < limit.bytes) limit = decoded;
    } catch {
      // not valid percent-encoding: the route will say so; the path as sent decides the limit
    }
  }
  return method === "GET" || method === "HEAD" ? NO_BODY.get(limit)! : limit;
}

const size = (n: number) => (n >= MiB && n % MiB === 0 ? `${n / MiB} MiB` : n >= KiB && n % KiB === 0 ? `${n / KiB} KiB` : `${n} bytes`);

/** A body over its limit (status 413); the message names the limit. */
export class BodyTooLargeError extends Error {
  readonly status = 413;
  constructor(
    readonly limit: BodyLimit,
    method: string,
    what = "request body",
  ) {
    super(
      limit.bytes === 0
        ? `${method} requests to ${limit.label} take no body`
        : `the ${what} is larger than the ${size(limit.bytes)} (${limit.bytes} bytes) limit for ${limit.label}`,
    );
    this.name = "BodyTooLargeError";
  }
}

/**
 * How fast a body must arrive, for every family: in each window of `windowMs` while a body is being read, at
 * least `minBytesPerSecond × windowMs` of it arrives or it ends — else 408 and the connection is closed, its
 * budget given back at once. One timer per request reading a body (not node's 30 s sweep of all sockets).
 * 8 KiB/s is a 64 kbit/s link; a runner's 16 MiB batch arrives in well under a second on any network it uses.
 */
export const BODY_READ = { windowMs: 5_000, minBytesPerSecond: 8 * KiB } as const;

/**
 * Who is sending a body, as server/auth/body-caller.ts judges it from the headers (declared here as well, by shape:
 * next.config.ts loads this file without imports). Only people draw on `reservedForPeople`.
 */
export type Caller = { kind: "person" | "key" | "stranger"; id: string };

/** A caller nobody identified (plain `next start` without a proxy: every stranger shares one share). */
const ANONYMOUS: Caller = { kind: "stranger", id: "unknown" };

type Budget = { total: number; people: number; byCaller: Map<string, number> };
// On globalThis: the production server's own code and Next's bundled route handlers share the budgets.
const budgets = ((globalThis as { lightgateBodyBudgetsByCaller?: Record<string, Budget> }).lightgateBodyBudgetsByCaller ??= {});
const budgetOf = (family: string): Budget => (budgets[family] ??= { total: 0, people: 0, byCaller: new Map() });

/** Why a ticket could not take more: the family's budget is spent, or this caller's share of it. */
export type Shortfall = "family" | "caller";

/** One request's share of its family's in-flight budget: taken chunk by chunk as bytes arrive, given back once, when done. */
export type BodyTicket = { take(bytes: number): boolean; readonly shortfall: Shortfall | null; release(): void };

/**
 * `caller` may be a function: evaluated at the first take (the store's fast path reads a body only after
 * the key check, so the key is known — and cached — by then).
 */
export function bodyTicket(limit: BodyLimit, caller: Caller | (() => Caller) = ANONYMOUS): BodyTicket {
  let held = 0;
  let who: Caller | null = typeof caller === "function" ? null : caller;
  let shortfall: Shortfall | null = null;
  const budget = budgetOf(limit.family);
  let key = "";
  return {
    get shortfall() {
      return shortfall;
    },
    take(bytes) {
      if (bytes === 0) return true;
      if (who === null) who = (caller as () => Caller)();
      if (key === "") key = `${who.kind}:${who.id}`;
      const person = who.kind === "person";
      const mine = budget.byCaller.get(key) ?? 0;
      // Everyone else may use the family's budget less the people's reserve; people may use all of it.
      const room = person ? limit.inFlight - budget.total : limit.inFlight - limit.reservedForPeople - (budget.total - budget.people);
      if (mine + bytes > Math.max(limit.perCaller, limit.bytes)) shortfall = "caller";
      else if (bytes > room || budget.total + bytes > limit.inFlight) shortfall = "family";
      else {
        budget.total += bytes;
        if (person) budget.people += bytes;
        budget.byCaller.set(key, mine + bytes);
        held += bytes;
        return true;
      }
      return false;
    },
    release() {
      if (held === 0) return;
      budget.total -= held;
      if (who!.kind === "person") budget.people -= held;
      const left = (budget.byCaller.get(key) ?? 0) - held;
      if (left > 0) budget.byCaller.set(key, left);
      else budget.byCaller.delete(key);
      held = 0;
    },
  };
}

/** Bytes of a family's request bodies held right now (tests, benches). */
export const bodyBytesInFlight = (family: BodyLimit["family"]) => budgetOf(family).total;

/** Too many of a family's bodies in flight at once: 503 with Retry-After, which the runners' clients retry. */
export class ServerBusyError extends Error {
  readonly status = 503;
  constructor(limit: BodyLimit, shortfall: Shortfall | null = "family") {
    super(
      shortfall === "caller"
        ? `this caller is already sending ${size(Math.max(limit.perCaller, limit.bytes))} of bodies to ${limit.label} at once, its share; retry in a moment`
        : `the server is receiving too many bodies for ${limit.label} at once (${size(limit.inFlight)} in flight); retry in a moment`,
    );
    this.name = "ServerBusyError";
  }
}

/** A body that stopped arriving, or arrives slower than BODY_READ allows: 408, the connection is closed. */
export class BodyStalledError extends Error {
  readonly status = 408;
  constructor(limit: BodyLimit, received: number) {
    const perWindow = (BODY_READ.minBytesPerSecond * BODY_READ.windowMs) / 1000;
    super(
      `the request body to ${limit.label} stalled: fewer than ${size(perWindow)} arrived in ${BODY_READ.windowMs / 1000} s (${received} bytes in all; at least ${size(BODY_READ.minBytesPerSecond)}/s is required)`,
    );
    this.name = "BodyStalledError";
  }
}

/**
 * Holds a body read to BODY_READ: `received()` says how many bytes have arrived so far; `onStall` runs once
 * when a window passes with too little. Returns the function that stops watching.
 */
export function watchBodyRate(received: () => number, onStall: () => void): () => void {
  const perWindow = (BODY_READ.minBytesPerSecond * BODY_READ.windowMs) / 1000;
  let mark = received();
  const timer = setInterval(() => {
    const now = received();
    if (now - mark < perWindow) {
      clearInterval(timer);
      onStall();
    }
    mark = now;
  }, BODY_READ.windowMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** The client went away (or broke the stream) before its body ended: nothing to answer, nothing to log. */
export class BodyAbortedError extends Error {
  readonly status = 400;
  constructor(cause?: unknown) {
    super(`the request body ended early: ${(cause as Error)?.message ?? "the connection closed"}`);
    this.name = "BodyAbortedError";
  }
}

type Headers = { get(name: string): string | null };

/**
 * Judged from the headers alone, before any byte of the body is read: a declared Content-Length over the
 * limit, or — where the limit is 0 — any body at all (a length above 0, or chunked).
 */
export function declaredTooLarge(headers: Headers, method: string, limit: BodyLimit): BodyTooLargeError | null {
  const length = headers.get("content-length");
  const declared = length === null ? NaN : Number(length);
  if (declared > limit.bytes) return new BodyTooLargeError(limit, method);
  if (limit.bytes === 0 && headers.get("transfer-encoding") !== null) return new BodyTooLargeError(limit, method);
  return null;
}

/** Whether the request says it carries a body (so leaving it unread means closing the connection). */
export function declaresBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  return headers.get("transfer-encoding") !== null || (length !== null && length !== "0");
}

/**
 * The production listener reads and counts a body before Next.js sees it (server-listener.ts) and marks the
 * request with this header, whose value is a random secret of this process: the route handler's
 * `withBodyLimit` then does not count the same bytes twice. A client cannot know the value; the listener
 * drops any it sends.
 */
export const COUNTED_HEADER = "x-lightgate-body-counted";
const marks = globalThis as { lightgateCountedMark?: string };

export function countedMark(): string {
  return (marks.lightgateCountedMark ??= globalThis.crypto.randomUUID());
}

export function countedByListener(headers: Headers): boolean {
  return marks.lightgateCountedMark !== undefined && headers.get(COUNTED_HEADER) === marks.lightgateCountedMark;
}
