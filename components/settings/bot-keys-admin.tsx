"use client";

// Release bots' Ed25519 public keys: a bot signs approvals with the private half, which never comes here.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";

export function BotKeysAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.botKeys.list.queryOptions());
  const [botId, setBotId] = useState("");
  const [name, setName] = useState("");
  const [publicKey, setPublicKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.botKeys.list.queryKey() });
  const register = useMutation(trpc.botKeys.register.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.botKeys.revoke.mutationOptions({ onSuccess: refresh }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await register.mutateAsync({ botId, name, publicKey });
      setName("");
      setPublicKey("");
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <Card title="Release-bot keys" description="Ed25519 public keys. A bot's approval is accepted only with a signature from one of its unrevoked keys.">
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div>
          {keys.data?.length === 0 && <p className="text-sm text-ink-3">No bot keys yet.</p>}
          <ul className="divide-y divide-line">
            {keys.data?.map((k) => (
              <li key={k.id} className="flex items-center justify-between gap-3 py-2">
                <div className="min-w-0">
                  <div className="text-sm font-medium text-ink">{k.name} <span className="font-normal text-ink-3">for {k.botId}</span></div>
                  <div className="truncate font-mono text-xs text-ink-3" title={k.publicKey}>ed25519:{k.publicKey}</div>
                </div>
                {k.revokedAt ? (
                  <Badge tone="unavailable">revoked</Badge>
                ) : (
                  <Button variant="danger" className="px-2 py-1 text-xs" disabled={revoke.isPending} onClick={() => revoke.mutate({ keyId: k.id })}>Revoke</Button>
                )}
              </li>
            ))}
          </ul>
        </div>
        <form onSubmit={submit} className="space-y-3" aria-label="Register a bot key">
          <Field label="Bot (service identity)" htmlFor="bot-id"><TextInput id="bot-id" required value={botId} onChange={(e) => setBotId(e.target.value)} /></Field>
          <Field label="Key name" htmlFor="bot-key-name"><TextInput id="bot-key-name" required value={name} onChange={(e) => setName(e.target.value)} /></Field>
          <Field label="Public key" htmlFor="bot-key" hint="PEM (BEGIN PUBLIC KEY) or the 32 raw bytes in base64.">
            <textarea id="bot-key" required rows={3} value={publicKey} onChange={(e) => setPublicKey(e.target.value)} className="w-full rounded-md border border-line bg-panel px-3 py-2 font-mono text-xs text-ink focus:border-accent focus:outline-none" />
          </Field>
          {error && <Alert tone="fail">{error}</Alert>}
          <Button type="submit" variant="secondary" className="w-full" disabled={register.isPending}>Register key</Button>
        </form>
      </div>
    </Card>
  );
}
