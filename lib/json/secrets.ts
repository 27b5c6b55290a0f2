// Which values in stored JSON are secrets: the one rule, used by the server for every dashboard read of stored
// JSON (server/routers/store) and resources diffs, and by the browser's JsonView, so a secret is masked the
// same way wherever it is shown.
//
// The list is Sentry's default set of sensitive fields — what its server-side data scrubbing removes by default
// (docs.sentry.io › Security & PII › Server-Side Data Scrubbing; `PASSWORD_KEY_REGEX`, `URL_AUTH_REGEX` and
// `BEARER_TOKEN_REGEX` in getsentry/relay, relay-pii/src/regexes.rs): password, passwd, secret, api_key/apikey,
// auth, credentials, mysql_pwd, privatekey/private_key, token, bearer, otp, two_factor — plus what model
// calls carry: key, passphrase, authorization, cookie, pass, and the request's pass-through fields. Sentry
// matches these as substrings of the key; here they are matched on the key's words, so that `author`,
// `max_tokens`, `pass_rate` or `keyboard` stay visible. Words: split at `_ - . :` and spaces and at camelCase
// humps, lower-cased, trailing digits dropped (`OPENAI_API_KEY`, `openaiApiKey`, `x-api-key`, `api_key_2` → …
// `key`). A key names a secret when
//   - its last word is `key` (or a compound such as `apikey`, `privatekey`), unless the word before it says
//     what kind of key that is not a secret (`public_key`, `sort_key`, `state_key`, `primary_key`, …);
//   - its last word ends in one of the list's words (`token`, `access_token`, `authToken`, `client_secret`,
//     `basic_auth`, `oauth`, `mysql_pwd`, `set-cookie`), or is `pass` (`db_pass`, but not `bypass`);
//   - it is a pass-through field of a model request, which may carry headers or keys under any name
//     (`extra_body`, `extra_headers`), or `two_factor`.
// A boolean is never masked (`pass: true` is not a secret). Whatever the key, credentials inside any string
// are masked too: a URL's userinfo (`https://user:pass@host` → `https://••••••••@host`) and a `Bearer` token.
export const MASK = "••••••••";

const SECRET_ENDINGS = /(token|password|passwd|passphrase|pwd|secrets?|auth|authorization|credentials?|cookie|bearer|otp|apikey|accesskey|privatekey|secretkey|signingkey)$/;
const SECRET_WORDS = new Set(["pass"]);
const SECRET_PAIRS = new Set(["extra body", "extra headers", "two factor"]);
const NOT_SECRET_KEYS = new Set(["public", "state", "sort", "primary", "foreign", "partition", "cache", "idempotency", "dedup", "dedupe", "group", "lookup", "index", "row"]);

function words(key: string): string[] {
  const out = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  while (out.length && /^\d+$/.test(out[out.length - 1]!)) out.pop();
  if (out.length) out[out.length - 1] = out[out.length - 1]!.replace(/\d+$/, "");
  return out;
}

export function isSecretKey(key: string): boolean {
  const w = words(key);
  const last = w[w.length - 1];
  if (!last) return false;
  const before = w[w.length - 2] ?? "";
  if (last === "key") return !NOT_SECRET_KEYS.has(before);
  return SECRET_ENDINGS.test(last) || SECRET_WORDS.has(last) || SECRET_PAIRS.has(`${before} ${last}`);
}

/** Whether the value under `key` is shown as the mask: a secret-named key holding something (not a boolean). */
export function hidesSecret(key: string, value: unknown): boolean {
  return value !== null && value !== "" && typeof value !== "boolean" && isSecretKey(key);
}

// Bounded repetitions, so a long string costs linear time whatever it holds: the scheme is at most 32
// characters, the userinfo stops at the first character a userinfo cannot hold (RFC 3986 §3.2.1).
const URL_USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@"'<>\\]{1,1000}@/gi;
const BEARER_TOKEN = /\b(bearer\s{1,10})[A-Za-z0-9\-._~+/]{8,}=*/gi;

/** A string with any URL userinfo and `Bearer` token in it replaced by the mask. */
export function maskCredentialsIn(text: string): string {
  let out = text;
  if (out.includes("://") && out.includes("@")) out = out.replace(URL_USERINFO, `$1${MASK}@`);
  if (/bearer/i.test(out)) out = out.replace(BEARER_TOKEN, `$1${MASK}`);
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** A deep copy with every secret (see above) replaced by the mask; Dates and other objects stay as they are. */
export function maskSecrets(value: unknown): unknown {
  if (typeof value === "string") return maskCredentialsIn(value);
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (isPlainObject(value)) {
    // fromEntries defines each key, so a stored key `__proto__` stays a key of the copy.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hidesSecret(k, v) ? MASK : maskSecrets(v)]));
  }
  return value;
}

/** `maskSecrets` for a stored record, keeping its type (the record's own keys are never secret-named). */
export function masked<T>(record: T): T {
  return maskSecrets(record) as T;
}

/** A page of stored records with each record masked; the page's own fields stay as they are. */
export function maskedPage<T, P extends { items: T[] }>(page: P): P {
  return { ...page, items: page.items.map(masked) };
}
