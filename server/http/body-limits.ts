// The one table of request-body limits, per route family, read by every path a request can take: the
// production server's pre-check and its store fast path (server/http/server-listener.ts, node-body.ts), the
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
    format: "message",
    label: "sign-in requests (/api/auth)",
    why: "better-auth's sign-in/sign-out: an email (≤ 200), a password (≤ 128) and a callback URL — a few hundred bytes",
  },
  {
    family: "trpc",
    paths: ["/api/trpc"],
    bytes: 1 * MiB,
    inFlight: 16 * MiB,
    format: "trpc",
    label: "dashboard calls (/api/trpc)",
    why: "a batch of dashboard calls; the largest inputs (a passkey's WebAuthn response, a registry record) are tens of KB",
  },
  {
    family: "store",
    paths: ["/v1/agl"],
    bytes: 16 * MiB,
    inFlight: 24 * MiB,
    format: "store",
    label: "the store API (/v1/agl)",
    why: "Agent Lightning clients send one span, one heartbeat or one batch of rollouts per request: kilobytes; 16 MiB is 10,000 rollouts with 1.6 KB inputs",
  },
  {
    family: "otlp",
    paths: ["/v1/traces", "/v1/metrics", "/v1/logs", "/v1/development/profiles"],
    bytes: 16 * MiB,
    inFlight: 24 * MiB,
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
    format: "message",
    label: "published gate datasets (/v1/gate/datasets)",
    why: "a held-out or canary set of up to 10,000 cases, each with its input and expected output: 16 MiB is 1.6 KB per case",
  },
  {
    family: "gate-api",
    paths: ["/v1/gate"],
    bytes: 1 * MiB,
    inFlight: 16 * MiB,
    format: "message",
    label: "the gate API (/v1/gate)",
    why: "a receipt declaration, a bind, a gate-run request or a verification: a few KB (a declaration's algorithm config the most)",
  },
  {
    family: "gate",
    paths: ["/v1/pointers", "/v1/receipts", "/api/health"],
    bytes: 0,
    inFlight: 0,
    format: "message",
    label: "pointers and receipts (GET only)",
    why: "read-only routes: no body at all",
  },
];

/** Pages and everything else Next.js serves: no page reads a body (the app has no server actions). */
export const DEFAULT_BODY_LIMIT: BodyLimit = { family: "pages", bytes: 64 * KiB, inFlight: 4 * MiB, format: "message", label: "pages" };

const strip = ({ paths: _p, why: _w, ...limit }: Entry): BodyLimit => limit;

export function bodyLimitOf(family: BodyLimit["family"]): BodyLimit {
  const entry = BODY_LIMITS.find((e) => e.family === family);
  return entry ? strip(entry) : DEFAULT_BODY_LIMIT;
}

function lookup(pathname: string): BodyLimit {
  for (const entry of BODY_LIMITS) for (const p of entry.paths) if (pathname === p || pathname.startsWith(`${p}/`)) return strip(entry);
  return DEFAULT_BODY_LIMIT;
}

/**
 * The limit for a request. GET and HEAD take no body anywhere. The path is judged as sent and percent-
 * decoded, and the smaller limit wins, so an encoded path cannot pick a larger limit than its route's.
 */
export function bodyLimitFor(pathname: string, method: string): BodyLimit {
  let limit = lookup(pathname);
  try {
    const decoded = lookup(decodeURIComponent(pathname));
    if (decoded.bytes < limit.bytes) limit = decoded;
  } catch {
    // not valid percent-encoding: the route will say so; the path as sent decides the limit
  }
  return method === "GET" || method === "HEAD" ? { ...limit, bytes: 0 } : limit;
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

/** Too many of a family's bodies in flight at once: 503 with Retry-After, which the runners' clients retry. */
export class ServerBusyError extends Error {
  readonly status = 503;
  constructor(limit: BodyLimit) {
    super(`the server is receiving too many bodies for ${limit.label} at once (${size(limit.inFlight)} in flight); retry in a moment`);
    this.name = "ServerBusyError";
  }
}

// On globalThis: the production server's own code and Next's bundled route handlers share the budgets.
const budgets = ((globalThis as { lightgateBodyBudgets?: Record<string, number> }).lightgateBodyBudgets ??= {});

/** One request's share of its family's in-flight budget: taken chunk by chunk, given back once, when done. */
export type BodyTicket = { take(bytes: number): boolean; release(): void };

export function bodyTicket(limit: BodyLimit): BodyTicket {
  let held = 0;
  return {
    take(bytes) {
      const inFlight = budgets[limit.family] ?? 0;
      if (inFlight + bytes > limit.inFlight) return false;
      budgets[limit.family] = inFlight + bytes;
      held += bytes;
      return true;
    },
    release() {
      budgets[limit.family] = (budgets[limit.family] ?? 0) - held;
      held = 0;
    },
  };
}

/** Bytes of a family's request bodies held right now (tests, benches). */
export const bodyBytesInFlight = (family: BodyLimit["family"]) => budgets[family] ?? 0;

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
