// Which JSON keys hold secrets, shared by the browser (JsonView) and the server (resources diffs), so a
// secret is masked the same way wherever it is shown.
export const SECRET_KEY = /(api[_-]?key|secret|token|password|authorization)$/i;
export const MASK = "••••••••";

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A deep copy with every non-empty secret value replaced by the mask. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretKey(k) && v !== null && v !== "" ? MASK : maskSecrets(v)]));
  }
  return value;
}
