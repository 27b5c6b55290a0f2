"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { passwordProblems } from "@/lib/auth/password-policy";
import { PasswordRules } from "./password-rules";
import { signInWithPassword } from "./session-client";

export function SetupForm() {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(trpc.auth.createFirstAdmin.mutationOptions());
  const weak = passwordProblems(password, { email, name }).length > 0;
  const mismatch = confirm.length > 0 && confirm !== password;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await create.mutateAsync({ name, email, password });
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    window.location.assign((await signInWithPassword(email, password)).status === 200 ? "/settings/people" : "/sign-in");
  }

  return (
    <Card title="Set up Lightgate" description="This instance has nobody yet. Create the first admin; this page disappears afterwards.">
      <form onSubmit={submit} className="space-y-4" aria-label="Create the first admin">
        <Field label="Your name" htmlFor="name">
          <TextInput id="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Email" htmlFor="email">
          <TextInput id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label="Password" htmlFor="password">
          <TextInput id="password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </Field>
        <PasswordRules password={password} context={{ email, name }} />
        <Field label="Password again" htmlFor="confirm" error={mismatch ? "The two passwords differ." : undefined}>
          <TextInput id="confirm" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </Field>
        {error && <Alert tone="fail">{error}</Alert>}
        <Button type="submit" className="w-full" disabled={create.isPending || weak || mismatch || !confirm}>
          {create.isPending ? "Creating…" : "Create admin and sign in"}
        </Button>
      </form>
    </Card>
  );
}
