"use client";

import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, CircleAlert, Database, Cpu, History } from "lucide-react";
import { useTRPC } from "@/components/trpc/react";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-6 border-b border-line py-2 last:border-0">
      <dt className="text-ink-3">{label}</dt>
      <dd className="min-w-0 truncate text-right font-medium text-ink">{children}</dd>
    </div>
  );
}

export function StatusView() {
  const trpc = useTRPC();
  const { data: status, error, dataUpdatedAt } = useQuery(trpc.system.status.queryOptions(undefined, { refetchInterval: 5_000 }));
  // Visitors who are not signed in learn only healthy / not healthy (server/routers/system/status.ts).
  const data = status && "database" in status ? status : undefined;

  return (
    <>
      <PageHeader
        title="Status"
        description="The database this instance uses, whether every migration is applied, and the serving process."
        actions={dataUpdatedAt ? <span className="text-xs text-ink-3">checked {new Date(dataUpdatedAt).toLocaleTimeString()}</span> : null}
      />
      {error && (
        <div role="alert" className="mb-6 flex items-center gap-2 rounded-lg border border-fail/30 bg-fail/10 px-4 py-3 text-fail">
          <CircleAlert className="h-4 w-4" /> The server did not answer: {error.message}
        </div>
      )}
      {status && !data && (
        <div data-testid="health-banner" className={`mb-6 flex items-center gap-3 rounded-lg border px-4 py-3 ${status.ok ? "border-pass/30 bg-pass/10 text-pass" : "border-fail/30 bg-fail/10 text-fail"}`}>
          {status.ok ? <CheckCircle2 className="h-5 w-5" /> : <CircleAlert className="h-5 w-5" />}
          <span className="font-medium">{status.ok ? "Healthy" : "Not healthy"} — sign in to see the database, its migrations and the serving process.</span>
        </div>
      )}
      {data && (
        <div
          data-testid="health-banner"
          className={`mb-6 flex items-center gap-3 rounded-lg border px-4 py-3 ${data.ok ? "border-pass/30 bg-pass/10 text-pass" : "border-fail/30 bg-fail/10 text-fail"}`}
        >
          {data.ok ? <CheckCircle2 className="h-5 w-5" /> : <CircleAlert className="h-5 w-5" />}
          <span className="font-medium">
            {data.ok
              ? `Healthy — ${data.database.dialect === "sqlite" ? "embedded SQLite" : "PostgreSQL"}, all ${data.database.migrations.applied.length} migrations applied`
              : `Needs attention — ${data.database.migrations.pending.length} pending, ${data.database.migrations.failed.length} failed migrations`}
          </span>
        </div>
      )}
      {(data || !status) && <div className="grid gap-4 lg:grid-cols-3">
        <Card title={<span className="flex items-center gap-2"><Database className="h-4 w-4 text-ink-3" />Database</span>}>
          {data ? (
            <dl data-testid="database-facts">
              <Row label="Engine">{data.database.dialect === "sqlite" ? "SQLite (embedded default)" : "PostgreSQL"}</Row>
              <Row label="Server">{data.database.serverVersion}</Row>
              <Row label="Location"><span className="font-mono text-xs" title={data.database.url}>{data.database.url}</span></Row>
              <Row label="Round trip">{data.database.latencyMs.toFixed(1)} ms</Row>
            </dl>
          ) : (
            <p className="text-ink-3">Loading…</p>
          )}
        </Card>
        <Card
          title={<span className="flex items-center gap-2"><History className="h-4 w-4 text-ink-3" />Migrations</span>}
          actions={data ? <Badge tone={data.database.migrations.upToDate ? "pass" : "fail"}>{data.database.migrations.upToDate ? "up to date" : "behind"}</Badge> : null}
        >
          {data ? (
            <ul className="space-y-1.5" data-testid="migration-list">
              {data.database.migrations.onDisk.map((name) => {
                const pending = data.database.migrations.pending.includes(name);
                const failed = data.database.migrations.failed.includes(name);
                return (
                  <li key={name} className="flex items-center justify-between gap-3">
                    <span className="truncate font-mono text-xs text-ink-2">{name}</span>
                    <Badge tone={failed ? "fail" : pending ? "warn" : "pass"}>{failed ? "failed" : pending ? "pending" : "applied"}</Badge>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="text-ink-3">Loading…</p>
          )}
        </Card>
        <Card title={<span className="flex items-center gap-2"><Cpu className="h-4 w-4 text-ink-3" />Process</span>}>
          {data ? (
            <dl>
              <Row label="Lightgate">v{data.version}</Row>
              <Row label="Node.js">{data.process.node}</Row>
              <Row label="PID">{data.process.pid}</Row>
              <Row label="Uptime">{formatDuration(data.process.uptimeSeconds)}</Row>
              <Row label="Memory (RSS)">{data.process.rssMb.toFixed(0)} MB</Row>
            </dl>
          ) : (
            <p className="text-ink-3">Loading…</p>
          )}
        </Card>
      </div>}
    </>
  );
}

function formatDuration(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}
