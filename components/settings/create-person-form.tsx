"use client";

import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { PasswordRules } from "@/components/auth/password-rules";
import { HUMAN_ROLES, ROLE_LABELS, type HumanRole } from "@/lib/auth/scopes";
import { passwordProblems } from "@/lib/auth/password-policy";

/** No email leaves this machine, so a new person gets an initial password from the admin, in person. */
export function CreatePersonForm({ onCreated }: { onCreated: () => void }) {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [roles, setRoles] = useState<HumanRole[]>(["viewer"]);
  const [agent, setAgent] = useState("");
  const [message, setMessage] = useState<{ tone: "pass" | "fail"; text: string } | null>(null);
  const create = useMutation(trpc.people.create.mutationOptions());

  async function submit(e: FormEvent) {
    e.preventDefault();
    setMessage(null);
    try {
      const person = await create.mutateAsync({ name, email, password, grants: roles.map((role) => ({ role, agent: agent.trim() || null })) });
      setMessage({ tone: "pass", text: `Created ${person.name}. Hand over the password in person; it is not shown again.` });
      setName("");
      setEmail("");
      setPassword("");
      onCreated();
    } catch (err) {
      setMessage({ tone: "fail", text: (err as Error).message });
    }
  }

  const toggle = (r: HumanRole) => setRoles((cur) => (cur.includes(r) ? cur.filter((x) => x !== r) : [...cur, r]));
  return (
    <Card title="Add a person" description="They sign in with this email and password.">
      <form onSubmit={submit} className="space-y-3" aria-label="Add a person">
        <Field label="Name" htmlFor="new-name"><TextInput id="new-name" required value={name} onChange={(e) => setName(e.target.value)} /></Field>
        <Field label="Email" htmlFor="new-email"><TextInput id="new-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} /></Field>
        <Field label="Initial password" htmlFor="new-password"><TextInput id="new-password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} /></Field>
        <PasswordRules password={password} context={{ email, name }} />
        <fieldset className="space-y-1">
          <legend className="text-xs font-medium text-ink-2">Roles</legend>
          {HUMAN_ROLES.map((r) => (
            <label key={r} className="flex items-center gap-2 text-sm text-ink-2">
              <input type="checkbox" checked={roles.includes(r)} onChange={() => toggle(r)} className="accent-[var(--lg-accent)]" /> {ROLE_LABELS[r]}
            </label>
          ))}
        </fieldset>
        <Field label="For agent" htmlFor="new-agent" hint="Leave empty for every agent.">
          <TextInput id="new-agent" placeholder="every agent" value={agent} onChange={(e) => setAgent(e.target.value)} />
        </Field>
        {message && <Alert tone={message.tone}>{message.text}</Alert>}
        <Button type="submit" className="w-full" disabled={create.isPending || roles.length === 0 || passwordProblems(password, { email, name }).length > 0}>
          {create.isPending ? "Creating…" : "Create person"}
        </Button>
      </form>
    </Card>
  );
}
