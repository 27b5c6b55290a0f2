"use client";

// "Judge every new version" on the agent's model page (issue 26): each resources id the policy owner turned on,
// what became of every version an algorithm published under it (judging, judged, coalesced into vN, or why it
// cannot be judged), and — for holders of policy:write for this agent — the switch. Others see why it is closed.
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCan } from "@/components/auth/me-provider";
import { NotAllowedNote } from "@/components/auth/not-allowed";
import { useTRPC } from "@/components/trpc/react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Alert, Button, Field, TextInput } from "@/components/ui/form";
import { Time } from "@/components/ui/time";

const STATE_TONE: Record<string, Tone> = { waiting: "neutral", judging: "accent", judged: "pass", coalesced: "stale", unjudgeable: "fail" };

type Version = { version: number; state: string; reason: string | null; coalescedInto: number | null; parent: string | null; candidateId: string | null; gateRunStatus: string | null; verdict: string | null; seenAt: Date };

function VersionLine({ v }: { v: Version }) {
  const what =
    v.state === "coalesced" ? `coalesced into v${v.coalescedInto}` : v.state === "judging" ? `judging${v.gateRunStatus ? ` (gate run ${v.gateRunStatus})` : ""}` : v.state;
  return (
    <li className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 py-1.5" data-testid="auto-judge-version">
      <span className="font-medium text-ink">v{v.version}</span>
      <Badge tone={STATE_TONE[v.state] ?? "neutral"}>{what}</Badge>
      {v.verdict && <span className="text-xs font-medium text-ink" data-testid="auto-judge-verdict">{v.verdict}</span>}
      {v.parent && <span className="text-xs text-ink-2">parent {v.parent}</span>}
      {v.candidateId && (
        <Link href={`/candidates/${encodeURIComponent(v.candidateId)}`} className="text-xs text-accent hover:underline">
          candidate
        </Link>
      )}
      <Time at={v.seenAt} className="text-xs text-ink-3" />
      {v.reason && v.state !== "coalesced" && <span className="basis-full break-words text-xs text-ink-2">{v.reason}</span>}
    </li>
  );
}

export function AutoJudgePanel({ agent }: { agent: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const can = useCan("policy:write", agent);
  const { data } = useQuery(trpc.agents.autoJudge.queryOptions({ agent }, { refetchInterval: 5_000 }));
  const change = useMutation(trpc.agents.setAutoJudge.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.agents.autoJudge.queryKey({ agent }) }) }));
  const [resourcesId, setResourcesId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const set = (id: string, enabled: boolean) => {
    setError(null);
    change.mutate({ agent, resourcesId: id, enabled }, { onError: (e) => setError(e.message), onSuccess: () => setResourcesId("") });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (resourcesId.trim()) set(resourcesId.trim(), true);
  };
  const settings = data?.settings ?? [];
  return (
    <Card title="Judge every new version" description="Each version an algorithm publishes under a resources id becomes a candidate Lightgate declares itself — parent, exam, evaluator and boundary from this agent's registries — and its gate run is requested through your runners. The training process needs no gate call.">
      <div className="space-y-3 text-sm" data-testid="auto-judge">
        {settings.length === 0 && <p className="text-ink-2">No resources id is judged automatically for {agent}.</p>}
        {settings.map((s) => (
          <div key={s.resourcesId} className="rounded border border-line p-2" data-testid="auto-judge-setting">
            <div className="flex flex-wrap items-center gap-2">
              <span className="break-all font-medium text-ink">{s.resourcesId}</span>
              <Badge tone={s.enabled ? "pass" : "neutral"}>{s.enabled ? "on" : "off"}</Badge>
              <span className="text-xs text-ink-3">
                {s.enabled ? "on" : "off"} since <Time at={s.changedAt} /> by {s.changedBy}; versions after v{s.sinceVersion}
              </span>
              {can && (
                <Button variant="secondary" onClick={() => set(s.resourcesId, !s.enabled)} disabled={change.isPending} data-testid="auto-judge-toggle">
                  {s.enabled ? "Turn off" : "Turn on"}
                </Button>
              )}
            </div>
            {s.enabled && (
              <p className="mt-1 text-xs text-ink-2" data-testid="auto-judge-window">
                {s.standing ? (
                  <>
                    The next version&apos;s receipt was declared <Time at={s.standing.declaredAt} />: the training rollouts on {s.resourcesId} since then are its evidence when it arrives.
                  </>
                ) : (
                  "The next version's receipt is declared as soon as this agent can be judged (a parent, its exam, an evaluator and a canary boundary)."
                )}
              </p>
            )}
            {s.versions.length > 0 ? (
              <ul className="mt-1 divide-y divide-line">
                {s.versions.map((v) => (
                  <VersionLine key={v.version} v={v} />
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-xs text-ink-2">No new version published since.</p>
            )}
          </div>
        ))}
        {can ? (
          <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
            <div className="min-w-0 flex-1">
              <Field label="Resources id" htmlFor="auto-judge-resources" hint="The exact id the algorithm publishes under (update_resources).">
                <TextInput id="auto-judge-resources" value={resourcesId} onChange={(e) => setResourcesId(e.target.value)} maxLength={512} className="w-full" />
              </Field>
            </div>
            <Button type="submit" disabled={change.isPending || !resourcesId.trim()} data-testid="auto-judge-enable">
              Judge new versions
            </Button>
          </form>
        ) : (
          <NotAllowedNote subject="Turning automatic judging on or off" scope="policy:write" agent={agent} testId="auto-judge-not-allowed" />
        )}
        {error && <Alert tone="fail">{error}</Alert>}
      </div>
    </Card>
  );
}
