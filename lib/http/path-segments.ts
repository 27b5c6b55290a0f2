// A URL path's segments, each percent-decoded exactly once, for every route that takes names from its path
// (the store's /v1/agl, pointers, receipts, and the proxy in front of Next.js). A segment that is not valid
// percent-encoding (`%E0%A4%A`) makes the whole path null, so the caller answers 400 saying so — never a
// 500 from a URIError, and never a second decode of an already-decoded name (`100%25` → `100%`).

/** The decoded segments of `pathname` (which starts with "/"), or null when one cannot be decoded. */
export function decodePathSegments(pathname: string): string[] | null {
  const raw = pathname.split("/").slice(1);
  const out: string[] = [];
  for (const segment of raw) {
    try {
      out.push(segment.includes("%") ? decodeURIComponent(segment) : segment);
    } catch {
      return null;
    }
  }
  return out;
}

export const BAD_PERCENT_ENCODING = "the path is not valid percent-encoding (a % must start a UTF-8 byte sequence such as %C3%A9)";

/** Why a decoded name from a path cannot be used, or null: empty, NUL (PostgreSQL text cannot hold it), too long. */
export function pathNameProblem(name: string, what: string, max = 512): string | null {
  if (name.length === 0) return `${what} must not be empty`;
  if (name.includes("\u0000")) return `${what} must not contain NUL characters`;
  if (name.length > max) return `${what} must be at most ${max} characters`;
  return null;
}
