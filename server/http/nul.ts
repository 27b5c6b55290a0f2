// NUL (U+0000) in caller-given text: PostgreSQL's text type cannot hold it, so a NUL that reached a query
// answered 500 on PostgreSQL ("invalid byte sequence for encoding UTF8: 0x00") and was stored or looked up
// as is on SQLite. Every edge that takes caller text — tRPC input (server/trpc.ts), API paths and query
// strings (api-route.ts), auth bodies (auth-endpoints.ts) — refuses it first, naming where it is; the
// store's REST schemas refuse it field by field.
export const NUL_REFUSAL = "must not contain NUL characters (U+0000)";

/** Where the first NUL is in a JSON-like value — a key or a string — as a dotted path ("" for the value itself), or null. */
export function nulPath(value: unknown, maxNodes = 1_000_000): string | null {
  const stack: [unknown, string][] = [[value, ""]];
  for (let seen = 0; stack.length && seen < maxNodes; seen++) {
    const [v, at] = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes("\u0000")) return at;
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    for (const [k, child] of Object.entries(v)) {
      const p = at ? `${at}.${k}` : k;
      if (k.includes("\u0000")) return p;
      stack.push([child, p]);
    }
  }
  return null;
}

/** "%00" anywhere in a URL's path or query string (decoded, it is a NUL). */
/** Where a URL holds an encoded NUL: "path", "query", or null. */
export function nulInUrl(url: URL): "path" | "query" | null {
  return /%00/i.test(url.pathname) ? "path" : /%00/i.test(url.search) ? "query" : null;
}
