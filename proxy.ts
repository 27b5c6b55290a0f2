// Next.js 16 proxy (formerly middleware), in front of the pages and of the routes that take names from their
// path. First, a path that is not valid percent-encoding gets a 400 that says so: Next.js would otherwise fail
// to decode the dynamic segment itself and answer with its error page (a 500 in production). Then, for pages
// only, an optimistic gate: without a session cookie, every page but the public ones redirects to
// /sign-in?next=…. It only looks for the cookie; the dashboard layout validates the session itself, and tRPC
// refuses without one (UNAUTHORIZED).
import { NextResponse, type NextRequest } from "next/server";
import { getSessionCookie } from "better-auth/cookies";
import { isPublicPath, PATH_HEADER, signInUrl } from "@/lib/auth/public-paths";
import { BAD_PERCENT_ENCODING, decodePathSegments } from "@/lib/http/path-segments";

const API_ROUTES = /^\/(v1|api)\//;

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (decodePathSegments(pathname) === null) {
    return NextResponse.json({ error: "bad_request", message: BAD_PERCENT_ENCODING }, { status: 400, headers: { "cache-control": "no-store" } });
  }
  if (API_ROUTES.test(pathname)) return NextResponse.next();
  if (!isPublicPath(pathname) && !getSessionCookie(request, { cookiePrefix: "lightgate" })) {
    return NextResponse.redirect(new URL(signInUrl(pathname + search), request.url));
  }
  // Server components cannot see the URL; the layout reads it from here to build ?next=.
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, pathname + search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages, and every API route for the encoding check (under scripts/serve.ts the store's /v1/agl and
  // /v1/traces never reach Next.js: they take the fast path, which checks its own paths); assets pass through.
  matcher: ["/v1/:path*", "/api/:path*", "/((?!api/|v1/|_next/|favicon\\.ico|.*\\.[A-Za-z0-9]+$).*)"],
};
