// Cross-site request forgery against the tRPC endpoint (and the gate API, which takes the same cookie). A browser attaches the session cookie to a
// cross-site form post (multipart/form-data needs no CORS preflight), which would reach mutations that
// take no input. So: tRPC POSTs must be JSON (a cross-site page cannot send that without a preflight we
// never grant), and a request that carries a session cookie must come from the dashboard's own origin.
// API-key callers (release bots) are no browsers and are judged by their key alone.
import { getSessionCookie } from "better-auth/cookies";
import { apiKeyOf } from "./api-keys";
import { SESSION_COOKIE_PREFIX } from "./session-cookie";
import { publicOrigin } from "./origin";

export type RequestRefusal = { code: "FORBIDDEN" | "UNSUPPORTED_MEDIA_TYPE"; message: string };

export function trpcRequestRefusal(req: { method: string; headers: Headers }, allowedOrigin = publicOrigin().origin): RequestRefusal | null {
  return jsonRequestRefusal(req, "tRPC requests", allowedOrigin);
}

/**
 * The same rule for any JSON API that also takes the session cookie (tRPC, the gate API): a POST must be
 * `application/json`, and a request with the session cookie must come from a page of `allowedOrigin`.
 */
export function jsonRequestRefusal(req: { method: string; headers: Headers }, what: string, allowedOrigin = publicOrigin().origin): RequestRefusal | null {
  const type = req.headers.get("content-type");
  if (req.method === "POST" && type?.split(";")[0]?.trim().toLowerCase() !== "application/json") {
    return { code: "UNSUPPORTED_MEDIA_TYPE", message: `content-type: ${what} are application/json, not ${type ? `"${type.slice(0, 100)}"` : "missing"}` };
  }
  if (apiKeyOf(req.headers) !== null || !getSessionCookie(req.headers, { cookiePrefix: SESSION_COOKIE_PREFIX })) return null;
  const why = crossSiteReason(req.headers, allowedOrigin);
  return why ? { code: "FORBIDDEN", message: `cross-site request refused (${why}): the session cookie works only for pages on ${allowedOrigin}` } : null;
}

/**
 * Why a request did not come from a page of `allowedOrigin` (null: it did, or it came from no browser).
 * Sec-Fetch-Site is set by the browser and cannot be forged by a page; older browsers send only Origin.
 */
function crossSiteReason(headers: Headers, allowedOrigin: string): string | null {
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none" ? null : `Sec-Fetch-Site: ${site.slice(0, 40)}`;
  const origin = headers.get("origin");
  if (origin !== null && origin !== allowedOrigin) return `Origin: ${origin.slice(0, 200)}`;
  return null;
}
