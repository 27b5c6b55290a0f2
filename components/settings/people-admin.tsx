"use client";

// People and their roles: the list, adding a role (for every agent or one), removing one, deactivating
// someone, and creating a person with an initial password to hand over.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { Card } from "@/components/ui/card";
import { ScrollX } from "@/components/ui/scroll-x";
import { Badge } from "@/components/ui/badge";
import { Alert, Button, Select, TextInput } from "@/components/ui/form";
import { HUMAN_ROLES, ROLE_LABELS, type HumanRole } from "@/lib/auth/scopes";
import { RoleBadges } from "./role-badges";
import { CreatePersonForm } from "./create-person-form";

function AddRole({ userId, onDone }: { userId: string; onDone: (error?: string) => void }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<HumanRole>("viewer");
  const [agent, setAgent] = useState("");
  const grant = useMutation(trpc.people.grantRole.mutationOptions());
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className="inline-flex items-center gap-1 text-xs text-ink-3 hover:text-accent">
        <Plus className="h-3 w-3" /> Add role
      </button>
    );
  }
  return (
    <form
      className="flex items-center gap-1.5"
      aria-label="Add a role"
      onSubmit={(e) => {
        e.preventDefault();
        grant.mutate(
          { userId, role, agent: agent.trim() || null },
          {
            onSuccess: () => {
              setOpen(false);
              setAgent("");
              onDone();
            },
            onError: (err) => onDone(err.message),
          },
        );
      }}
    >
      <Select aria-label="Role" value={role} onChange={(e) => setRole(e.target.value as HumanRole)} className="w-40 py-1 text-xs">
        {HUMAN_ROLES.map((r) => (
          <option key={r} value={r}>{ROLE_LABELS[r]}</option>
        ))}
      </Select>
      <TextInput aria-label="Agent" placeholder="every agent" value={agent} onChange={(e) => setAgent(e.target.value)} className="w-32 py-1 text-xs" />
      <Button type="submit" variant="secondary" className="px-2 py-1 text-xs" disabled={grant.isPending}>Add</Button>
      <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => setOpen(false)}>Cancel</Button>
    </form>
  );
}

export function PeopleAdmin({ selfId }: { selfId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const people = useQuery(trpc.people.list.queryOptions());
  const [error, setError] = useState<string | null>(null);
  const refresh = (err?: string) => {
    setError(err ?? null);
    void queryClient.invalidateQueries({ queryKey: trpc.people.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
  };
  const revoke = useMutation(trpc.people.revokeRole.mutationOptions({ onSuccess: () => refresh(), onError: (e) => refresh(e.message) }));
  const setActive = useMutation(trpc.people.setActive.mutationOptions({ onSuccess: () => refresh(), onError: (e) => refresh(e.message) }));

  return (
    <div className="grid gap-6 xl:grid-cols-[1fr_22rem]">
      <Card title="People" description="Roles apply to every agent unless an agent is named.">
        {error && <div className="mb-3"><Alert tone="fail">{error}</Alert></div>}
        {people.isLoading && <p className="text-ink-3">Loading…</p>}
        <ScrollX label="people">
          <table className="w-full text-left text-sm" data-testid="people-table">
            <thead className="text-xs text-ink-3">
              <tr className="border-b border-line">
                <th className="py-2 pr-3 font-medium">Person</th>
                <th className="py-2 pr-3 font-medium">Roles</th>
                <th className="py-2 pr-3 font-medium">Passkeys</th>
                <th className="py-2 font-medium"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {people.data?.map((p) => (
                <tr key={p.id} className="border-b border-line align-top last:border-0" data-testid={`person-${p.email}`}>
                  <td className="py-2.5 pr-3">
                    <div className="font-medium text-ink">{p.name} {p.id === selfId && <span className="text-xs font-normal text-ink-3">(you)</span>}</div>
                    <div className="text-xs text-ink-3">{p.email}</div>
                    {p.disabledAt && <div className="mt-1"><Badge tone="unavailable">deactivated</Badge></div>}
                  </td>
                  <td className="space-y-2 py-2.5 pr-3">
                    <RoleBadges grants={p.grants} disabled={revoke.isPending} onRemove={(g) => revoke.mutate({ userId: p.id, role: g.role, agent: g.agent })} />
                    <AddRole userId={p.id} onDone={refresh} />
                  </td>
                  <td className="py-2.5 pr-3 tabular-nums text-ink-2">{p.passkeys}</td>
                  <td className="py-2.5 text-right">
                    {p.id !== selfId && (
                      <Button variant={p.disabledAt ? "secondary" : "ghost"} className="px-2 py-1 text-xs" disabled={setActive.isPending} onClick={() => setActive.mutate({ userId: p.id, active: Boolean(p.disabledAt) })}>
                        {p.disabledAt ? "Reactivate" : "Deactivate"}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      </Card>
      <CreatePersonForm onCreated={() => refresh()} />
    </div>
  );
}
