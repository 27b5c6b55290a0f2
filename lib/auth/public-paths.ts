// Which pages anyone may open without signing in, and where others are sent instead.
export const PUBLIC_PATHS = ["/status", "/sign-in", "/setup"] as const;
export const PATH_HEADER = "x-lightgate-path";

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export function signInUrl(next: string): string {
  return next && next !== "/" ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in";
}

/** Only same-site paths are followed after sign-in: never `//host`, a scheme, or a backslash trick. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\") || [...next].some((c) => c.charCodeAt(0) < 32)) return "/";
  return next;
}
