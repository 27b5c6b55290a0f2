// The browser's side of sessions: better-auth's endpoints, called directly (the cookie is httpOnly).

/** Signs in; resolves to the HTTP status (200 on success, 0 when the server did not answer). */
export async function signInWithPassword(email: string, password: string): Promise<number> {
  const res = await fetch("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: email.trim(), password }),
  }).catch(() => null);
  return res?.status ?? 0;
}

export async function signOut(): Promise<void> {
  await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).catch(() => undefined);
}
