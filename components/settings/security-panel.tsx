"use client";

// A person's passkeys: add one (WebAuthn registration), remove one, and "test my passkey", which signs a
// sample payload through exactly the path a release approval takes and verifies it online and offline.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { Fingerprint, KeyRound } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { Time } from "@/components/ui/time";

type Outcome = { tone: "pass" | "fail"; text: string; detail?: string } | null;

function message(err: unknown): string {
  const e = err as Error & { name?: string };
  if (e?.name === "NotAllowedError") return "The passkey prompt was cancelled or timed out.";
  return e?.message ?? String(err);
}

export function SecurityPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.passkeys.list.queryOptions());
  const [name, setName] = useState("");
  const [busy, setBusy] = useState<"register" | "test" | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const beginRegistration = useMutation(trpc.passkeys.beginRegistration.mutationOptions());
  const finishRegistration = useMutation(trpc.passkeys.finishRegistration.mutationOptions());
  const beginTest = useMutation(trpc.passkeys.beginTestSignature.mutationOptions());
  const finishTest = useMutation(trpc.passkeys.finishTestSignature.mutationOptions());
  const remove = useMutation(trpc.passkeys.remove.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.passkeys.list.queryKey() }) }));

  async function register() {
    setBusy("register");
    setOutcome(null);
    try {
      const { nonce, options } = await beginRegistration.mutateAsync();
      const response = await startRegistration({ optionsJSON: options });
      const passkey = await finishRegistration.mutateAsync({ nonce, name: name.trim() || "Passkey", response });
      setOutcome({ tone: "pass", text: `Passkey “${passkey.name}” registered.` });
      setName("");
      await queryClient.invalidateQueries({ queryKey: trpc.passkeys.list.queryKey() });
    } catch (err) {
      setOutcome({ tone: "fail", text: `Registration failed: ${message(err)}` });
    } finally {
      setBusy(null);
    }
  }

  async function test() {
    setBusy("test");
    setOutcome(null);
    try {
      const { payload, options } = await beginTest.mutateAsync();
      const response = await startAuthentication({ optionsJSON: options });
      const result = await finishTest.mutateAsync({ payload, response });
      setOutcome({
        tone: result.verifiedOffline ? "pass" : "fail",
        text: result.verifiedOffline
          ? `Signed with “${result.passkeyName}” and verified, online and offline. Your passkey is ready for approvals.`
          : `Signed with “${result.passkeyName}”, but the offline check failed.`,
        detail: `payload ${result.digest} · signature counter ${result.counter}`,
      });
      await queryClient.invalidateQueries({ queryKey: trpc.passkeys.list.queryKey() });
    } catch (err) {
      setOutcome({ tone: "fail", text: `Test signature failed: ${message(err)}` });
    } finally {
      setBusy(null);
    }
  }

  const problems = list.data?.originProblems ?? [];
  const passkeys = list.data?.passkeys ?? [];
  return (
    <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
      <Card title="Passkeys" description={list.data ? `Bound to ${list.data.rpId}. Each can sign approvals on your behalf.` : undefined}>
        {problems.length > 0 && <div className="mb-3"><Alert tone="warn">{problems.join(" ")}</Alert></div>}
        {list.isLoading && <p className="text-ink-3">Loading…</p>}
        {list.data && passkeys.length === 0 && (
          <EmptyState title="No passkeys yet" icon={<KeyRound className="h-6 w-6" />}>Add one to be able to sign approvals.</EmptyState>
        )}
        <ul className="divide-y divide-line" data-testid="passkey-list">
          {passkeys.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-3 py-2.5">
              <div>
                <div className="flex items-center gap-2 text-sm font-medium text-ink">
                  <Fingerprint className="h-4 w-4 text-ink-3" /> {p.name}
                  {p.backedUp && <Badge tone="neutral">synced</Badge>}
                </div>
                <div className="text-xs text-ink-3">
                  added <Time at={p.createdAt} /> · {p.lastUsedAt ? <>last used <Time at={p.lastUsedAt} /></> : "never used"}
                </div>
              </div>
              <Button variant="ghost" className="px-2 py-1 text-xs" disabled={remove.isPending} onClick={() => remove.mutate({ passkeyId: p.id })}>Remove</Button>
            </li>
          ))}
        </ul>
      </Card>
      <div className="space-y-4">
        <Card title="Add a passkey">
          <div className="space-y-3">
            <Field label="Name" htmlFor="passkey-name" hint="So you can tell your passkeys apart, e.g. “Laptop”.">
              <TextInput id="passkey-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Laptop" />
            </Field>
            <Button onClick={register} className="w-full" disabled={busy !== null || problems.length > 0}>
              <KeyRound className="h-4 w-4" /> {busy === "register" ? "Waiting for your passkey…" : "Add passkey"}
            </Button>
          </div>
        </Card>
        <Card title="Test my passkey" description="Signs a sample payload exactly as an approval would, then checks the signature.">
          <Button variant="secondary" onClick={test} className="w-full" disabled={busy !== null || passkeys.length === 0}>
            <Fingerprint className="h-4 w-4" /> {busy === "test" ? "Waiting for your passkey…" : "Sign a test payload"}
          </Button>
        </Card>
        {outcome && (
          <Alert tone={outcome.tone} testId="passkey-outcome">
            <div>{outcome.text}</div>
            {outcome.detail && <div className="mt-1 font-mono text-[11px] break-all opacity-80">{outcome.detail}</div>}
          </Alert>
        )}
      </div>
    </div>
  );
}
