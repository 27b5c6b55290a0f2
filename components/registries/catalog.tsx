"use client";

// The registries area's front page: every kind of record the gate judges against, each with its records,
// the version in force per agent and when it last changed. Policy owners get the publish link.
import Link from "next/link";
import { Plus } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { useCan } from "@/components/auth/me-provider";
import { useTRPC } from "@/components/trpc/react";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Alert } from "@/components/ui/form";
import { Time } from "@/components/ui/time";
import { AREA_KINDS, isDatasetKind, KIND_INFO, registryHref, type AreaKind } from "@/lib/registries/kinds";

const agentText = (agent: string) => (agent === "*" ? "every agent" : agent);

export function RegistriesCatalog() {
  const trpc = useTRPC();
  const catalog = useQuery(trpc.registries.catalog.queryOptions());
  const canPublish = useCan("policy:write");
  if (catalog.error) return <Alert tone="fail">{catalog.error.message}</Alert>;
  if (!catalog.data) return <div className="text-sm text-ink-3">Loading…</div>;
  const byKind = (kind: AreaKind) => catalog.data.filter((r) => r.kind === kind).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div className="space-y-4" data-testid="registries-catalog">
      {AREA_KINDS.map((kind) => {
        const rows = byKind(kind);
        const info = KIND_INFO[kind];
        return (
          <Card
            key={kind}
            id={kind}
            title={info.plural}
            description={info.about}
            actions={canPublish ? <Link href={`/registries/new?kind=${kind}`} className="inline-flex items-center gap-1 rounded-md border border-line px-2 py-1 text-xs font-medium text-ink-2 hover:bg-panel-2 hover:text-ink"><Plus className="h-3.5 w-3.5" aria-hidden />New {info.label.toLowerCase()}</Link> : undefined}
          >
            {rows.length === 0 ? (
              <p className="text-sm text-ink-3">None published.</p>
            ) : (
              <ul className="divide-y divide-line" data-testid={`kind-${kind}`}>
                {rows.map((r) => (
                  <li key={r.name} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2 text-sm">
                    <Link href={registryHref(kind, r.name)} className="min-w-0 font-medium break-all text-ink hover:text-accent">{r.name}</Link>
                    <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-3">
                      {r.current.map((v) => (
                        <span key={v.agent} className="inline-flex items-center gap-1">
                          <Badge tone="accent">v{v.version}</Badge>
                          {isDatasetKind(kind) ? `${v.caseCount ?? 0} cases` : `for ${agentText(v.agent)}`}
                        </span>
                      ))}
                      <span>{r.versions} version{r.versions === 1 ? "" : "s"}</span>
                      <span>updated <Time at={r.updatedAt} /></span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        );
      })}
    </div>
  );
}
