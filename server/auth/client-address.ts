// Which address a request came from, for the per-address sign-in limit and the session record.
// X-Forwarded-For is whatever the client wrote unless a proxy we run appended to it, so it counts only
// for the configured number of trusted proxy hops (LIGHTGATE_TRUSTED_PROXY_HOPS, default 0: the socket's
// own address). scripts/serve.ts, which sees the socket, writes the answer into CLIENT_ADDRESS_HEADER,
// replacing anything a client sent under that name; better-auth reads only that header.
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

export const CLIENT_ADDRESS_HEADER = "x-lightgate-client-address";
export const MAX_TRUSTED_PROXY_HOPS = 10;
// Set by the process that stamps requests (scripts/serve.ts). Next.js bundles its own copy of this
// module, so the flag lives on globalThis, not in a module variable.
const STAMPED = Symbol.for("lightgate.client-address.stamped");

export function trustedProxyHops(source: Record<string, string | undefined> = process.env): number {
  const raw = source.LIGHTGATE_TRUSTED_PROXY_HOPS?.trim();
  if (!raw) return 0;
  const hops = Number(raw);
  if (!Number.isInteger(hops) || hops < 0 || hops > MAX_TRUSTED_PROXY_HOPS) {
    throw new Error(`LIGHTGATE_TRUSTED_PROXY_HOPS must be a whole number from 0 to ${MAX_TRUSTED_PROXY_HOPS}, not "${raw}"`);
  }
  return hops;
}

/**
 * The client's address: the nearest sender is the socket, then X-Forwarded-For from right to left (each
 * proxy appends the address it received from). With `hops` trusted proxies in front of us the client is
 * `hops` steps in; a shorter chain ends at its farthest address, and an entry that is not an IP address
 * ends it early (nothing behind a malformed hop can be trusted). Express's "trust proxy" count works so.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string | null {
  const chain: string[] = [];
  for (const entry of [socketAddress ?? "", ...forwardedList(forwardedFor).reverse()]) {
    if (chain.length > hops) break;
    if (!isIP(entry)) break;
    chain.push(entry);
  }
  return chain.at(-1) ?? null;
}

function forwardedList(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(",") : (value ?? "");
  return joined
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function isStamped(): boolean {
  return (globalThis as Record<symbol, unknown>)[STAMPED] === true;
}

/** The address of a request on node:http, from its socket and the trusted proxy hops. */
export function nodeClientAddress(req: IncomingMessage, hops = trustedProxyHops()): string | null {
  return clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], hops);
}

/** serve.ts: writes the client's address into the request before Next.js sees it. */
export function stampClientAddress(req: IncomingMessage, hops = trustedProxyHops()): void {
  (globalThis as Record<symbol, unknown>)[STAMPED] = true;
  const address = nodeClientAddress(req, hops);
  if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
  else delete req.headers[CLIENT_ADDRESS_HEADER];
}

/**
 * The auth route: under serve.ts the header is ours. Under plain `next start` nobody stamped it, so a
 * client-sent value is dropped; the socket is out of reach there, so only a trusted proxy's
 * X-Forwarded-For can name the client (without one, every client shares one per-address budget).
 */
export function withClientAddress(request: Request, hops = trustedProxyHops(), stamped = isStamped()): Request {
  if (stamped) return request;
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_ADDRESS_HEADER);
  const address = requestClientAddress(request.headers, hops, stamped);
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
  return new Request(request, { headers });
}

/** The client's address as `withClientAddress` judges it, without building a new Request (its body stays unread). */
export function requestClientAddress(headers: { get(name: string): string | null }, hops = trustedProxyHops(), stamped = isStamped()): string | null {
  if (stamped) return headers.get(CLIENT_ADDRESS_HEADER);
  // The nearest proxy is the (unseen) socket: skip it, then count the remaining hops in X-Forwarded-For.
  const forwarded = forwardedList(headers.get("x-forwarded-for") ?? undefined);
  return hops > 0 ? clientAddress(forwarded.at(-1), forwarded.slice(0, -1), hops - 1) : null;
}
