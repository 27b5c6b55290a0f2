// Who is sending a request body, for the in-flight body budgets (server/http/body-limits.ts), judged from the
// headers before a byte of the body is counted. Cheap on purpose: an API key goes through the same cached
// check the handler makes next (a miss costs the one read the handler would have made; the handler then hits
// the cache), and a session cookie is judged by its signature alone — better-auth signs it with the server's
// secret, so a stranger cannot make one up, and no session row is read here.
import { createHmac, timingSafeEqual } from "node:crypto";
import { hexId } from "@/server/digest";
import type { Database } from "@/server/db/client";
import { apiKeyOf, authenticateApiKey, cachedApiKeyActor } from "./api-keys";
import { authSecret } from "./secret";

type HeaderReader = { get(name: string): string | null };

/**
 * Who is sending a body, judged from its headers before any of it is counted: a valid API key (its id), a
 * session cookie signed with the server's secret (the session), else the client's address. An invalid
 * key or a forged cookie is a stranger: only people draw on `reservedForPeople` (server/http/body-limits.ts).
 */
export type Caller = { kind: "person" | "key" | "stranger"; id: string };
export type IdentifyCaller = (headers: HeaderReader, address: string | null) => Promise<Caller>;

// better-auth's session cookie (SESSION_COOKIE_PREFIX in better-auth.ts; "__Secure-" on https origins).
const SESSION_COOKIES = ["lightgate.session_token", "__Secure-lightgate.session_token"];

const stranger = (address: string | null): Caller => ({ kind: "stranger", id: address ?? "unknown" });

function sessionCookie(headers: HeaderReader): string | null {
  const cookie = headers.get("cookie");
  if (!cookie) return null;
  for (const part of cookie.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && SESSION_COOKIES.includes(part.slice(0, at).trim())) return part.slice(at + 1).trim();
  }
  return null;
}

/** The session token of a cookie signed with `secret` (better-call's `token.base64(HMAC-SHA256)`), or null. */
export function signedSessionToken(headers: HeaderReader, secret: string): string | null {
  const raw = sessionCookie(headers);
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** Without the database: a key the cache already vouches for, else the client's address (no sessions). */
export function knownCaller(headers: HeaderReader, address: string | null): Caller {
  const token = apiKeyOf(headers);
  const actor = token ? cachedApiKeyActor(token) : null;
  return actor ? { kind: "key", id: actor.id } : stranger(address);
}

/** The full judgement: keys checked (cached), session cookies by signature, else the client's address. */
export function callerIdentifier(database: () => Promise<Database>): IdentifyCaller {
  let secret: Promise<string> | undefined;
  return async (headers, address) => {
    const token = apiKeyOf(headers);
    if (token !== null) {
      // A presented key decides: an invalid one is a stranger, whatever cookie sits beside it.
      const actor = token ? await authenticateApiKey((await database()).db, token) : null;
      return actor ? { kind: "key", id: actor.id } : stranger(address);
    }
    if (sessionCookie(headers) === null) return stranger(address);
    secret ??= database().then((d) => authSecret(d.db));
    const session = signedSessionToken(headers, await secret);
    return session ? { kind: "person", id: hexId(24, session) } : stranger(address);
  };
}
