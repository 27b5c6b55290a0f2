// The browser half of a signed decision shares its error wording: a cancelled passkey prompt says nothing moved.
export function errorText(err: unknown): string {
  const e = err as Error & { name?: string };
  if (e?.name === "NotAllowedError") return "The passkey prompt was cancelled or timed out. Nothing was signed or changed.";
  return e?.message ?? String(err);
}
