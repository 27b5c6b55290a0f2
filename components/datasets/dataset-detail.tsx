"use client";

// One dataset snapshot: identity and size, lineage, the pipeline that made it, how its records spread
// over strata (and over train / validation / test where it was split), and sample records — PII redacted.
import { Fragment } from "react";
import Link from "next/link";
import { useCan } from "@/components/auth/me-provider";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/react";
import { Alert, Select } from "@/components/ui/form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CopyId } from "@/components/ui/copy-id";
import { DataTable, Pager, type Column } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { Stat } from "@/components/ui/stat";
import { useUrlState } from "@/components/ui/url-state";
import { redactionText } from "@/lib/datasets/redactions";
import { LineageGraph } from "./lineage-graph";
import { Time } from "@/components/ui/time";

const LIMIT = 10;
const PARTS = [
  { key: "train", label: "train", color: "bg-accent" },
  { key: "validation", label: "validation", color: "bg-stale" },
  { key: "test", label: "test", color: "bg-pass" },
] as const;

const bytes = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 ** 2).toFixed(1)} MB`);

/** Redaction tokens ([EMAIL], [PHONE], …) stand out from the text around them. */
function RedactedText({ text }: { text: string }) {
  if (!text) return <span className="text-ink-3">—</span>;
  return (
    <span>
      {text.split(/(\[(?:EMAIL|IBAN|CARD|IP|PHONE|ADDRESS|NAME)\])/).map((part, i) =>
        i % 2 ? <mark key={i} className="rounded bg-warn/15 px-0.5 font-mono text-xs text-warn">{part}</mark> : <Fragment key={i}>{part}</Fragment>,
      )}
    </span>
  );
}

export function DatasetDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const url = useUrlState();
  const offset = Number(url.get("offset") ?? 0) || 0;
  const kind = (url.get("kind") ?? undefined) as "demonstration" | "interaction" | "feedback" | "task" | undefined;
  const detail = useQuery(trpc.datasets.getSnapshot.queryOptions({ id }));
  const canCreate = useCan("training:run");
  const records = useQuery(trpc.datasets.listSnapshotRecords.queryOptions({ id, offset, limit: LIMIT, kind }));
  if (detail.error) return <Alert tone="fail">{detail.error.message}</Alert>;
  if (!detail.data) return <div className="text-sm text-ink-3">Loading…</div>;
  const d = detail.data;
  const s = d.snapshot;
  type Rec = NonNullable<typeof records.data>["rows"][number];
  const columns: Column<Rec>[] = [
    { key: "id", header: "Record", cell: (r) => <CopyId value={r.id} short={22} /> },
    { key: "kind", header: "Kind", cell: (r) => <span className="text-ink-2">{r.kind}{r.domain ? ` · ${r.domain}` : ""}</span> },
    { key: "summary", header: "What it holds", className: "max-w-md", cell: (r) => <span className="text-xs text-ink-2">{r.summary}</span> },
    {
      key: "text",
      header: "Text (PII redacted)",
      className: "max-w-md",
      cell: (r) => (
        <div className="space-y-1">
          <RedactedText text={r.text} />
          {Object.keys(r.redactedForDisplay).length > 0 && <div><Badge tone="warn" title="The stored text still holds this PII: this snapshot was made without the anonymize step.">redacted for display: {redactionText(r.redactedForDisplay)}</Badge></div>}
        </div>
      ),
    },
  ];
  return (
    <>
      <PageHeader eyebrow="Dataset snapshot" title={`${s.name} v${s.version}`} actions={canCreate ? <Link href={`/datasets/new?from=${encodeURIComponent(s.id)}`} className="rounded-md border border-line px-3 py-2 text-sm font-medium text-ink hover:bg-panel-2">Derive a snapshot</Link> : undefined} description={<span className="inline-flex flex-wrap items-center gap-x-2">Content-addressed: <CopyId value={s.digest} short={40} /></span>} />
      <div className="space-y-4">
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Stat label="Records" value={s.recordCount.toLocaleString("en")} hint={s.kinds.join(", ")} />
          <Stat label="Size" value={bytes(d.bytes)} hint="canonical JSON" />
          <Stat label="PII redacted by its pipeline" value={Object.values(d.redactions).reduce((a, b) => a + b, 0).toLocaleString("en")} tone={Object.keys(d.redactions).length ? "pass" : undefined} hint={redactionText(d.redactions) ?? (s.lineage.pipeline.some((p) => p.step === "anonymize") ? "anonymize step ran; nothing found" : "no anonymize step")} />
          <Stat label="Created" value={<Time at={s.createdAt} className="text-base" />} hint={`by ${s.createdBy} · ${s.id}`} />
        </div>
        <Card title="Lineage" description="What this snapshot was made from, and what was made from it.">
          <LineageGraph snapshot={s} ancestors={d.ancestors} descendants={d.descendants} />
        </Card>
        <div className="grid gap-4 lg:grid-cols-2">
          <Card title="Pipeline" description="Steps run, in order, with records in → out.">
            {s.lineage.pipeline.length === 0 ? (
              <div className="text-sm text-ink-3">Stored as given: no preprocessing steps.</div>
            ) : (
              <table className="w-full text-left text-sm" data-testid="pipeline-table">
                <tbody>
                  {s.lineage.pipeline.map((p, i) => (
                    <tr key={i} className="border-b border-line align-top last:border-0">
                      <td className="py-2 pr-3 font-medium text-ink">{p.step}</td>
                      <td className="py-2 pr-3 tabular-nums whitespace-nowrap text-ink-2">{p.in} → {p.out}</td>
                      <td className="py-2 text-xs text-ink-3">
                        {[...Object.entries(p.params).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : String(v)}`), ...Object.entries(p.details).filter(([, v]) => v > 0).map(([k, v]) => `${k}: ${v}`)].join(" · ") || "—"}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card title="Strata" description={d.split ? `Split ${d.split.shares ? PARTS.map((p) => `${p.label} ${Math.round(d.split!.shares![p.key] * 100)} %`).join(" / ") : ""} per stratum (seed “${d.split.seed ?? "?"}”).` : "Records per stratum (kind / domain). Not split yet."}>
            <div className="space-y-2" data-testid="strata">
              {d.strata.map((st) => (
                <div key={st.stratum} className="grid grid-cols-[11rem_1fr_4rem] items-center gap-3 text-xs">
                  <span className="truncate text-ink-2" title={st.stratum}>{st.stratum}</span>
                  <div className="flex h-4 overflow-hidden rounded bg-panel-2" title={PARTS.map((p) => `${p.label} ${st[p.key]}`).join(", ")}>
                    {d.split ? PARTS.map((p) => <div key={p.key} className={p.color} style={{ width: `${(st[p.key] / st.records) * 100}%` }} />) : <div className="bg-ink-3/50" style={{ width: `${(st.records / Math.max(...d.strata.map((x) => x.records))) * 100}%` }} />}
                  </div>
                  <span className="text-right tabular-nums text-ink">{d.split ? `${st.train}/${st.validation}/${st.test}` : st.records}</span>
                </div>
              ))}
              {d.split && (
                <div className="flex gap-3 pt-1 text-xs text-ink-3">
                  {PARTS.map((p) => <span key={p.key} className="flex items-center gap-1"><span className={`h-2 w-3 rounded-sm ${p.color}`} />{p.label}</span>)}
                </div>
              )}
            </div>
          </Card>
        </div>
        <Card
          title="Sample records"
          description="Text is shown with every PII span replaced by its type."
          actions={
            <div className="w-44"><Select aria-label="Record kind" value={kind ?? ""} onChange={(e) => url.set({ kind: e.target.value || null, offset: null })} className="py-1 text-xs">
              <option value="">every kind</option>
              {s.kinds.map((k) => <option key={k} value={k}>{k}</option>)}
            </Select></div>
          }
        >
          <DataTable testId="records-table" rows={records.data?.rows ?? []} columns={columns} rowKey={(r) => r.id} loading={records.isLoading} />
          {records.data && <Pager offset={offset} limit={LIMIT} total={records.data.total} onChange={(o) => url.set({ offset: o || null })} />}
        </Card>
      </div>
    </>
  );
}
