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

// The API routes the proxy sees (for the encoding check under plain `next start`): only those with names in
// their path and no body or a small one. Next.js buffers a body for the proxy up to proxyClientMaxBodySize
// (64 KiB) and silently cuts what is longer — so tRPC, the store and the gate API never pass through it;
// scripts/serve.ts checks their paths' encoding itself (server/process/server-listener.ts).
const API_ROUTES = /^\/(v1\/pointers|v1\/receipts|api\/auth)\//;

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
  // Pages, and the API routes named above for the encoding check; assets pass through.
  matcher: ["/v1/pointers/:path*", "/v1/receipts/:path*", "/api/auth/:path*", "/((?!api/|v1/|_next/|favicon\\.ico|.*\\.[A-Za-z0-9]+$).*)"],
};
