// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that signed
// in to an account gets a cookie naming that account, signed with a server key. Its sign-in attempts are
// then counted against the cookie, not against the account's budget for unknown browsers, so strangers
// who lock the account out do not lock out its owner. The cookie proves nothing else: it is no session.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const DEVICE_COOKIE = "lightgate.device";
export const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;
const VERSION = "d1";

export type DeviceCookie = { userId: string; nonce: string };

/** A key of its own for device cookies, derived from the auth secret (never the secret itself). */
export function deviceCookieKey(authSecret: string): Buffer {
  return createHmac("sha256", authSecret).update("lightgate device cookie v1").digest();
}

/** `d1.<userId>.<expires>.<nonce>.<mac>`, each part base64url, so the value needs no cookie quoting. */
export function issueDeviceCookie(key: Buffer, userId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + DEVICE_COOKIE_MAX_AGE_S;
  const body = [VERSION, Buffer.from(userId).toString("base64url"), expires.toString(36), randomBytes(16).toString("base64url")].join(".");
  return `${body}.${mac(key, body)}`;
}

/** The device a cookie names, or null when it is malformed, forged or expired. */
export function readDeviceCookie(key: Buffer, value: string | null | undefined, now = Date.now()): DeviceCookie | null {
  if (!value || value.length > 400) return null;
  const parts = value.split(".");
  if (parts.length !== 5 || parts[0] !== VERSION) return null;
  const [, user, expires, nonce, presented] = parts as [string, string, string, string, string];
  const expected = Buffer.from(mac(key, parts.slice(0, 4).join(".")), "base64url");
  const given = Buffer.from(presented, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (parseInt(expires, 36) * 1000 <= now) return null;
  return { userId: Buffer.from(user, "base64url").toString(), nonce };
}

function mac(key: Buffer, body: string): string {
  return createHmac("sha256", key).update(body).digest("base64url");
}
