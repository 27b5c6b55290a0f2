"use client";

import { useState, type FormEvent } from "react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { signInWithPassword } from "./session-client";

type DemoAccount = { email: string; label: string; password: string };

const REASONS: Record<number, string> = {
  401: "Wrong email or password.",
  403: "This account is deactivated. Ask an admin to reactivate it.",
  429: "Too many attempts. Wait a minute and try again.",
};

export function SignInForm({ next, demoAccounts }: { next: string; demoAccounts: DemoAccount[] }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const { status, message } = await signInWithPassword(email, password);
    if (status === 200) {
      // A full navigation, so the server renders the shell with the new session.
      window.location.assign(next);
      return;
    }
    setBusy(false);
    // 429 has several causes (this address, this account, this browser): the server's sentence says which.
    const reason = status === 429 ? (message ?? REASONS[429]) : REASONS[status];
    setError(status ? (reason ?? `Sign-in failed (${status}).`) : "The server did not answer.");
  }

  return (
    <div className="space-y-4">
      <Card title="Sign in" description="Use the account an admin created for you.">
        <form onSubmit={submit} className="space-y-4" aria-label="Sign in">
          <Field label="Email" htmlFor="email">
            <TextInput id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field label="Password" htmlFor="password">
            <TextInput id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field>
          {error && <Alert tone="fail">{error}</Alert>}
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Signing in…" : "Sign in"}
          </Button>
        </form>
      </Card>
      {demoAccounts.length > 0 && (
        <Card title="Demo accounts" description={<>Demo mode: every account&apos;s password is <code className="font-mono text-ink-2">{demoAccounts[0]!.password}</code>.</>}>
          <ul className="space-y-1" data-testid="demo-accounts">
            {demoAccounts.map((a) => (
              <li key={a.email}>
                <button
                  type="button"
                  onClick={() => {
                    setEmail(a.email);
                    setPassword(a.password);
                  }}
                  className="flex w-full items-center justify-between gap-3 rounded px-2 py-1 text-left text-xs hover:bg-panel-2"
                >
                  <span className="font-medium text-ink">{a.label}</span>
                  <span className="truncate font-mono text-ink-3">{a.email}</span>
                </button>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
