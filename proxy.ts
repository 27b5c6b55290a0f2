// Next.js 16 proxy (formerly middleware): an optimistic gate in front of the pages. Without a session
// cookie, every page but the public ones redirects to /sign-in?next=…. It only looks for the cookie;
// the dashboard layout validates the session itself, and tRPC refuses without one (UNAUTHORIZED).
import { NextResponse, type NextRequest } from "next/server";
import { getSessionCookie } from "better-auth/cookies";
import { isPublicPath, PATH_HEADER, signInUrl } from "@/lib/auth/public-paths";

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (!isPublicPath(pathname) && !getSessionCookie(request, { cookiePrefix: "lightgate" })) {
    return NextResponse.redirect(new URL(signInUrl(pathname + search), request.url));
  }
  // Server components cannot see the URL; the layout reads it from here to build ?next=.
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, pathname + search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Pages only: API routes (tRPC, auth, the store's /v1) answer for themselves; assets pass through.
  matcher: ["/((?!api/|v1/|_next/|favicon\\.ico|.*\\.[A-Za-z0-9]+$).*)"],
};
