// The browser's side of sessions: better-auth's endpoints, called directly (the cookie is httpOnly).

/** Signs in; resolves to the HTTP status (200 on success, 0 when the server did not answer) and the server's message. */
export async function signInWithPassword(email: string, password: string): Promise<{ status: number; message: string | null }> {
  const res = await fetch("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: email.trim(), password }),
  }).catch(() => null);
  if (!res) return { status: 0, message: null };
  const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
  return { status: res.status, message: typeof body?.message === "string" ? body.message : null };
}

export async function signOut(): Promise<void> {
  await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).catch(() => undefined);
}
