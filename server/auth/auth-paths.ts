// Which of better-auth's endpoints Lightgate serves under /api/auth, and who may call them — declared
// once: `servedAuthPathsOnly` answers every other path 404 before any work, and the route matrix test
// reads this table (and fails on a better-auth endpoint it does not know). An allow-list, because
// better-auth's own `disabledPaths` compares concrete paths, so a deny-list entry such as
// "/callback/:id" never matched a request, and an endpoint added by an upgrade would be served unnoticed.
import type { BetterAuthPlugin } from "better-auth";

/** "public": anyone (signing in is what it is for); "session": better-auth answers 401 without one. */
export type AuthPathAccess = "public" | "session";

export const SERVED_AUTH_PATHS: ReadonlyMap<string, AuthPathAccess> = new Map<string, AuthPathAccess>([
  ["/sign-in/email", "public"],
  ["/sign-out", "public"], // ends the presented session, if there is one
  ["/get-session", "public"], // answers null without a session
]);

/** The endpoint path better-auth routes `url` to (its base path and trailing slashes removed, as better-auth does). */
export function authPathOf(url: string, basePath: string): string {
  const pathname = new URL(url).pathname.replace(/\/+$/, "") || "/";
  const base = basePath.replace(/\/+$/, "");
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : pathname;
}

/** Refuses, with better-auth's own 404, every request for a path not in SERVED_AUTH_PATHS. */
export function servedAuthPathsOnly(basePath: string): BetterAuthPlugin {
  return {
    id: "lightgate-served-paths",
    onRequest: async (request) => (SERVED_AUTH_PATHS.has(authPathOf(request.url, basePath)) ? undefined : { response: new Response("Not Found", { status: 404 }) }),
  };
}
