// Which JSON keys hold secrets: the one rule, used by the server for every dashboard read of stored JSON
// (server/routers/store) and resources diffs, and by the browser's JsonView, so a secret is masked the same
// way wherever it is shown.
//
// The rule works on the key's words — split at `_ - . :` and spaces and at camelCase humps, lower-cased,
// trailing digits dropped (`OPENAI_API_KEY`, `openaiApiKey`, `x-api-key`, `api_key_2` → … `key`) — so that
// `keyboard`, `monkey` or `max_tokens` are not secrets. A key names a secret when its last word
//   - is `key` (or a compound such as `apikey`, `privatekey`), unless the word before it says what kind of
//     key that is not a secret (`public_key`, `sort_key`, `state_key`, `primary_key`, …);
//   - ends in token, password, passwd, passphrase, secret(s), authorization, credential(s) or cookie
//     (`token`, `access_token`, `authToken`, `client_secret`, `Authorization`, `set-cookie`).
export const MASK = "••••••••";

const SECRET_ENDINGS = /(token|password|passwd|passphrase|secrets?|authorization|credentials?|cookie|apikey|accesskey|privatekey|secretkey|signingkey)$/;
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
  if (last === "key") return !NOT_SECRET_KEYS.has(w[w.length - 2] ?? "");
  return SECRET_ENDINGS.test(last);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** A deep copy with every non-empty secret value replaced by the mask; Dates and other objects stay as they are. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (isPlainObject(value)) {
    // fromEntries defines each key, so a stored key `__proto__` stays a key of the copy.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretKey(k) && v !== null && v !== "" ? MASK : maskSecrets(v)]));
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
